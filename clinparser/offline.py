"""Switch every model hub client to offline mode, in-process, before anything imports them.

Imported first by ``clinparser/__init__.py``: huggingface_hub and transformers read these
variables at import time, so setting them later would be too late. ``setdefault`` is not
used on purpose: a user's ``HF_HUB_OFFLINE=0`` must not re-enable downloads.
"""

import os

OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "DO_NOT_TRACK": "1",
    "HF_HUB_DISABLE_IMPLICIT_TOKEN": "1",
}


def apply() -> None:
    os.environ.update(OFFLINE_ENV)


apply()
