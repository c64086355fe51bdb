"""Sources of actions: the keyboard map for the two humans, and the computer opponent."""
