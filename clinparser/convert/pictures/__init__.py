"""Pictures: abutting tiles joined into one figure, and the words inside each picture."""
