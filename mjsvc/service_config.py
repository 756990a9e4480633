"""The gRPC service config the project publishes for clients (`deploy/service_config.json`, the README, the
load generator and the test clients all use this one): every MahjongEngine method is idempotent, so a call
refused with UNAVAILABLE (a worker draining on SIGTERM, a connection lost with a killed worker, no worker up
for a moment) is retried with backoff, up to 5 attempts in all, within the call's own deadline.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SERVICE = "mahjong.v1.MahjongEngine"

SERVICE_CONFIG: dict[str, Any] = {
    "methodConfig": [{
        "name": [{"service": SERVICE}],
        "retryPolicy": {
            "maxAttempts": 5,
            "initialBackoff": "0.05s",
            "maxBackoff": "1s",
            "backoffMultiplier": 2,
            "retryableStatusCodes": ["UNAVAILABLE"],
        },
    }],
}

# Where the published copy lives in the repository (tests check it says the same).
PUBLISHED = Path("deploy") / "service_config.json"


def as_json() -> str:
    return json.dumps(SERVICE_CONFIG, indent=2) + "\n"


def channel_options() -> list[tuple[str, Any]]:
    """Channel options that apply the service config (retries need `grpc.enable_retries`, on by default)."""
    return [("grpc.service_config", json.dumps(SERVICE_CONFIG)), ("grpc.enable_retries", 1)]
