"""ONNX Runtime session settings for the models ClinParser runs in its page workers.

Each worker process runs one page at a time on one core, so every session is made
single-threaded and without spinning; OCR sessions also keep no memory arena. Both the
layout workers and page recovery make sessions under these settings, so they live here,
below both."""

from __future__ import annotations

import contextlib
import sys

# Modules that import InferenceSession by name, so patching onnxruntime alone misses them.
_BOUND_BY_NAME = ("rapidocr.inference_engine.onnxruntime.main",)


def _bind(session_class) -> None:
    for name in _BOUND_BY_NAME:
        module = sys.modules.get(name)
        if module is not None and hasattr(module, "InferenceSession"):
            module.InferenceSession = session_class


_ARENA = [True]  # the memory arena of sessions made now (see without_memory_arena)


@contextlib.contextmanager
def without_memory_arena():
    """Sessions made while open keep no memory arena. For the OCR models: their inputs (whole
    page renders of any size) would grow an arena by about 0.6 GB per process, kept to the end;
    the layout model's fixed-size inputs are what the arena is for."""
    _ARENA[0] = False
    try:
        yield
    finally:
        _ARENA[0] = True


@contextlib.contextmanager
def single_threaded_sessions():
    """While open, every new onnxruntime.InferenceSession is single-threaded, without spinning,
    with its memory arena on."""
    import onnxruntime

    real = onnxruntime.InferenceSession

    class Pinned(real):  # a subclass, so isinstance checks still hold
        def __init__(self, path_or_bytes, sess_options=None, providers=None, provider_options=None, **kwargs):
            options = sess_options or onnxruntime.SessionOptions()
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            options.enable_cpu_mem_arena = _ARENA[0]
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            super().__init__(
                path_or_bytes, sess_options=options, providers=providers, provider_options=provider_options, **kwargs
            )

    onnxruntime.InferenceSession = Pinned
    _bind(Pinned)
    try:
        yield
    finally:
        onnxruntime.InferenceSession = real
        _bind(real)  # also undoes the name a module imported while the pin was on
