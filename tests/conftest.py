"""Shared test settings: hypothesis profiles (select one with HYPOTHESIS_PROFILE=ci|dev)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# No deadlines: timing is not behaviour, and CI machines are shared. "ci" is derandomised so a
# red build can be reproduced from its log; "dev" explores more.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, derandomize=True, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, max_examples=500, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
