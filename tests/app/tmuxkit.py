"""The real-terminal kit's old name: it lives in testkit.tmux now."""

from testkit.tmux import TmuxServer, gone, process_state

__all__ = ["TmuxServer", "gone", "process_state"]
