"""Repairs of the layout model's boxes: heading lines, list lead-ins, joined list items, heading
numbers drawn as pictures."""
