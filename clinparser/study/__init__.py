"""The study definition: what the protocol says about the study itself.

Takes the assembled document and its blocks; gives titles, identifiers, phase, sponsor,
eligibility criteria, objectives with their endpoints and abbreviations, each traced to its page."""
