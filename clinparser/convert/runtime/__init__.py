"""The ONNX models the page workers run: session settings and the OCR engine."""
