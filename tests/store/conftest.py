"""The history tests import their helpers from this folder (storekit.py)."""
