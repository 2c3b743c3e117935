"""Schedules of activities: the tables that are one, read into visits, activities and marks.

Takes the assembled tree; gives each schedule table a ``schedule`` (encounters with their timing,
activities, marked cells, footnotes) and the warnings of what could not be read."""
