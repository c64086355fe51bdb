"""Engine-test settings: Hypothesis profiles.

The default profile ("engine") keeps the whole engine suite well under a
minute on two cores; HYPOTHESIS_PROFILE=long runs many more examples and
longer stateful runs.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "engine",
    max_examples=40,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long",
    max_examples=2000,
    stateful_step_count=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "engine"))
