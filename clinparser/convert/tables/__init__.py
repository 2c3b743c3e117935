"""Tables read from their drawn grid, and cells given the page's own word spacing."""
