"""A schedule table read into encounters, groups, activities, marks and footnotes."""

from clinparser.model import Table
from clinparser.schedule.grid import (
    legend_pairs,
    read_footnotes,
    read_legend,
    read_schedule,
    split_mark,
    split_markers,
    vocabulary_of,
)

VOCAB = vocabulary_of(["Participants leave the unit after the last visit. Vital signs and consent are checked."])


def table(columns, rows):
    return Table(title="Table 1: Schedule of Activities", page=3, pages=[3, 3], columns=columns, data=rows)


SOA = table(
    [
        "Procedure / Visit / Study day",
        "Screening / V1 / -28 to -1",
        "Treatment / V2 / 1",
        "Treatment / V3 / 15 ±3",
        "Follow-up / V4 / 43 ±7",
    ],
    [
        ["Eligibility", "", "", "", ""],
        ["Informed consent", "X", "", "", ""],
        ["Discharge from unitf", "", "X", "", ""],
        ["Safety", "", "", "", ""],
        ["Vital signs", "X", "Xa", "X b,f", "•"],
        ["Blood sample", "", "P", "0, 2, 4 h", ""],
    ],
)
NOTES = "\n\na Before dosing.\n\nb Seated for 5 minutes.\n\nf After the last visit only.\n\nAbbreviations: V = visit."


def read(t=SOA, notes=NOTES):
    return read_schedule(t, notes, VOCAB, name=t.title)


def test_encounters_epochs_and_timings():
    s = read()
    assert [e["visit"] for e in s["encounters"]] == ["1", "2", "3", "4"]  # "V1": visit 1
    assert [e["column"] for e in s["encounters"]] == [1, 2, 3, 4]
    assert s["encounters"][0]["timing"] == {"unit": "day", "from": -28, "to": -1, "cycle": None}
    assert s["encounters"][3]["window"] == {"text": "±7", "before": 7, "after": 7, "unit": "day"}
    assert s["epochs"] == [
        {"label": "Screening", "encounters": [0]},
        {"label": "Treatment", "encounters": [1, 2]},
        {"label": "Follow-up", "encounters": [3]},
    ]
    assert [e["epoch"] for e in s["encounters"]] == ["Screening", "Treatment", "Treatment", "Follow-up"]


def test_a_visit_event_over_one_column_and_the_axis_title_are_no_epochs():
    rows = [["Informed consent", "X", "", "", "", ""], ["Vital signs", "X", "X", "X", "X", "X"]]
    s = read(
        table(
            [
                "Procedure / Visit",
                "Screening / V1",
                "Intervention period [weeks] / V2",
                "Intervention period [weeks] / V3",
                "End of Treatment / V4",
                "Follow-up / V5",
            ],
            rows,
        )
    )
    assert s["epochs"] == [
        {"label": "Screening", "encounters": [0]},
        {"label": "Intervention period", "encounters": [1, 2]},
        {"label": "Follow-up", "encounters": [4]},
    ]
    assert [e["visit"] for e in s["encounters"]] == ["1", "2", "3", "4", "5"]
    # the same with the event named after what stops ("Study Treatment Discontinuation")
    stopped = read(
        table(
            [
                "Procedure / Visit",
                "Screening / V1",
                "Intervention period [weeks] / V2",
                "Intervention period [weeks] / V3",
                "Study Treatment Discontinuation (within 7 days) / V4",
                "Follow-up / V5",
            ],
            rows,
        )
    )
    assert [e["label"] for e in stopped["epochs"]] == ["Screening", "Intervention period", "Follow-up"]
    axis = read(
        table(
            [
                "Procedure",
                "Study Visit (Day) / 1",
                "Study Visit (Day) / 8",
                "Study Visit (Day) / 15",
                "Study Visit (Day) / 22",
                "Study Visit (Day) / 29",
            ],
            rows,
        )
    )
    assert axis["epochs"] == [] and {e["epoch"] for e in axis["encounters"]} == {None}


def test_a_time_axis_over_some_columns_is_no_epoch_and_names_lose_timings_and_markers():
    rows = [["Informed consent", "X", "", "", "", ""], ["Vital signs", "X", "X", "X", "X", "X"]]
    s = read(
        table(
            [
                "Procedure",
                "Screening (-42 to -1) / Scr",
                "Screening (-42 to -1) / D-1",
                "Day 3 to 28 / 3",
                "Day 3 to 28 / 4",
                "Follow-up,b / FU",
            ],
            rows,
        )
    )
    assert [e["label"] for e in s["epochs"]] == ["Screening", "Follow-up"]
    assert [e["epoch"] for e in s["encounters"]] == ["Screening", "Screening", None, None, "Follow-up"]


def test_a_period_before_treatment_alone_over_its_one_visit_is_that_visit_and_its_epoch():
    # "Screening (D-42 to -2)" is the whole header of its column, beside a period over many;
    # a lone "Follow-up" or "ET" stays a visit only
    rows = [["Informed consent", "X", "", "", "", ""], ["Vital signs", "X", "X", "X", "X", "X"]]
    s = read(
        table(
            [
                "Procedure",
                "Screening (D-42 to -2)",
                "Treatment Period (Study Days) / 1",
                "Treatment Period (Study Days) / 2",
                "ET",
                "Follow-up",
            ],
            rows,
        )
    )
    assert s["epochs"] == [
        {"label": "Screening", "encounters": [0]},
        {"label": "Treatment Period", "encounters": [1, 2]},
    ]
    assert [e["epoch"] for e in s["encounters"]] == ["Screening", "Treatment Period", "Treatment Period", None, None]
    assert [e["visit"] for e in s["encounters"]][3:] == ["ET", "Follow-up"]
    # a header cut inside its bracket keeps the name
    cut = read(table(["Procedure", "Screening (", "Run-in / 1", "Run-in / 2", "Treatment / 3", "Treatment / 4"], rows))
    assert [e["label"] for e in cut["epochs"]] == ["Screening", "Run-in", "Treatment"]
    # with no period over many columns, a lone name is a visit
    lone = read(table(["Procedure", "Screening", "Day 1", "Day 8", "Day 15", "Day 22"], rows))
    assert lone["epochs"] == []


def test_a_visits_code_over_its_columns_is_no_epoch():
    rows = [["Body weight", "X", "X", "X", "X", "X"], ["Vital signs", "X", "X", "X", "X", "X"]]
    s = read(
        table(
            [
                "Procedure",
                "Treatment / V22",
                "Treatment / V23",
                "V24ext / week 70",
                "V24ext / week 72",
                "Follow-up / V25",
            ],
            rows,
        )
    )
    assert [e["label"] for e in s["epochs"]] == ["Treatment", "Follow-up"]
    assert [e["epoch"] for e in s["encounters"]] == ["Treatment", "Treatment", None, None, "Follow-up"]


def test_groups_activities_and_marks_with_their_footnotes():
    s = read()
    assert [(g["label"], g["row"]) for g in s["groups"]] == [("Eligibility", 0), ("Safety", 3)]
    assert [(a["label"], a["group"], a["footnotes"]) for a in s["activities"]] == [
        ("Informed consent", "Eligibility", []),
        ("Discharge from unit", "Eligibility", ["f"]),
        ("Vital signs", "Safety", []),
        ("Blood sample", "Safety", []),
    ]
    vital = [(m["encounter"], m["text"], m["footnotes"]) for m in s["marks"] if m["activity"] == 2]
    assert vital == [(0, "X", []), (1, "X", ["a"]), (2, "X", ["b", "f"]), (3, "•", [])]
    blood = [(m["encounter"], m["text"]) for m in s["marks"] if m["activity"] == 3]
    assert blood == [(1, "P"), (2, "0, 2, 4 h")]  # a time list is kept as printed
    assert [f["marker"] for f in s["footnotes"]] == ["a", "b", "f"]
    assert s["diagnostics"] == []


def test_a_marker_used_but_not_printed_below_is_a_diagnostic():
    s = read(notes="\n\na Before dosing.")
    assert any("'b'" in d for d in s["diagnostics"]) and any("'f'" in d for d in s["diagnostics"])


def test_merged_marks_and_unlabelled_marks_are_diagnostics_not_guesses():
    t = table(SOA.columns, SOA.data + [["", "X", "", "", ""], ["Weight", "X X", "", "X", ""]])
    s = read(t)
    assert any("no activity label" in d for d in s["diagnostics"])
    assert any("several marks" in d for d in s["diagnostics"])


def test_a_table_that_is_not_a_grid_of_visits_has_no_schedule():
    listing = table(["Abbreviation", "Meaning"], [["AE", "adverse event"], ["ECG", "electrocardiogram"]])
    assert read(listing) is None
    no_marks = table(
        ["Parameter", "Week 1", "Week 2", "Week 4"], [["Dose (mg)", "10", "20", "40"], ["Volume (mL)", "1", "2", "4"]]
    )
    assert read(no_marks) is None


def test_marks():
    assert split_mark("Xa") == ("X", ["a"])
    assert split_mark("X b,c") == ("X", ["b", "c"])
    assert split_mark("(X)") == ("(X)", [])
    assert split_mark("Day 1 only") == ("Day 1 only", [])


def test_markers_leave_words_of_the_document_alone():
    markers = {"f", "t", "s"}
    assert split_markers("Discharge from unitf", markers, VOCAB) == ("Discharge from unit", ["f"])
    assert split_markers("Informed consent", markers, VOCAB) == ("Informed consent", [])  # "consen" + t: no
    assert split_markers("Vital signs checks", markers, VOCAB) == ("Vital signs checks", [])  # a plural stays
    assert split_markers("Serum sample (safety)t", markers, VOCAB) == ("Serum sample (safety)", ["t"])
    assert split_markers("Discharge from unitf", set(), VOCAB) == ("Discharge from unitf", [])  # no such footnote


def test_footnote_runs():
    notes = (
        "a First.\n\n- Second, its marker read as a bullet.\n\nc Third. d Fourth in the same paragraph.\n\n"
        "X<sup>e</sup> = Fifth."
    )
    assert [(f["marker"], f["text"]) for f in read_footnotes(notes)] == [
        ("a", "First."),
        ("b", "Second, its marker read as a bullet."),
        ("c", "Third."),
        ("d", "Fourth in the same paragraph."),
        ("e", "Fifth."),
    ]


def test_footnotes_stop_where_a_later_table_starts_its_own_run():
    notes = "a One.\n\nb Two.\n\n[Table 2: Other]\n\na Another table's."
    assert [f["text"] for f in read_footnotes(notes)] == ["One.", "Two."]


def test_marks_under_no_header_are_a_diagnostic():
    t = table(SOA.columns + [""], [r + ["X" if r[0] == "Vital signs" else ""] for r in SOA.data])
    s = read(t)
    assert s["encounters"][-1]["label"] == "" and any("under no header" in d for d in s["diagnostics"])


def test_an_empty_group_row_is_a_group_and_a_wrapped_label_joins_its_activity():
    t = table(
        SOA.columns,
        [
            ["Randomization", "", "X", "", ""],
            ["Pretreatment procedures", "", "", "", ""],  # a group with no activity of its own
            ["Study drug", "", "", "", ""],
            ["Blood sampling for", "", "X", "X", ""],
            ["pharmacokinetics", "", "", "", ""],  # the label above, wrapped into a row of its own
            ["Other", "", "", "", ""],
            ["Weight", "X", "", "", "X"],
        ],
    )
    s = read(t)
    assert [g["label"] for g in s["groups"]] == ["Pretreatment procedures", "Study drug", "Other"]
    assert [a["label"] for a in s["activities"]] == ["Randomization", "Blood sampling for pharmacokinetics", "Weight"]


def test_a_row_cut_by_the_page_break_joins_its_activity():
    rows = [
        ["Vital signs", "X", "", "", ""],
        ["Blood sampling for PK: plasma drug", "", "X", "X", ""],
        ["PD: plasma markers", "", "", "", ""],  # first row of the next page's part
        ["Safety", "", "", "", ""],
        ["Weight", "X", "", "", "X"],
    ]
    cut = table(SOA.columns, rows)
    cut.part_rows = [2]
    assert [a["label"] for a in read(cut)["activities"]] == [
        "Vital signs",
        "Blood sampling for PK: plasma drug PD: plasma markers",
        "Weight",
    ]
    whole = table(SOA.columns, rows)  # the same rows on one page: an empty group
    assert [g["label"] for g in read(whole)["groups"]] == ["PD: plasma markers", "Safety"]


def test_notes_and_legend_rows_inside_the_grid_are_notes_not_activities():
    t = table(
        ["Procedure", "Visit 1", "Visit 2", "Visit 3"],
        [
            ["Consent", "X", "", ""],
            ["Vital signs", "X", "X", "X"],
            ["Note: A cycle is 21 days.", "", "", ""],
            [
                "Abbreviations: ECG, electrocardiogram",
                "Abbreviations: ECG, electrocardiogram",
                "Abbreviations: ECG, electrocardiogram",
                "Abbreviations: ECG, electrocardiogram",
            ],
        ],
    )
    s = read(t, "")
    assert [a["label"] for a in s["activities"]] == ["Consent", "Vital signs"]
    assert s["notes"] == [
        {"text": "Note: A cycle is 21 days.", "row": 2},
        {"text": "Abbreviations: ECG, electrocardiogram", "row": 3},
    ]
    assert sum("notes or legend row" in d for d in s["diagnostics"]) == 2


def test_a_header_cell_run_over_several_columns_is_split_one_visit_each():
    t = table(
        [
            "Procedure",
            "Study Visit (Day) / 1 (HD)",
            "Study Visit (Day) 13 (HD) 15 (HD) 17 (HD)",
            "Study Visit (Day) 13 (HD) 15 (HD) 17 (HD)",
            "Study Visit (Day) 13 (HD) 15 (HD) 17 (HD)",
        ],
        [["Vital signs", "X", "X", "X", "X"], ["Weight", "X", "", "X", ""]],
    )
    s = read(t, "")
    assert [e["short_label"] for e in s["encounters"]] == ["1 (HD)", "13 (HD)", "15 (HD)", "17 (HD)"]
    assert any("split into one visit each" in d for d in s["diagnostics"])


def test_symbol_font_characters_in_headers_are_read_as_what_they_print():
    t = table(
        ["Procedure", "35 (\uf0b13 days)", "45 (\uf0b13 days)"], [["Vital signs", "X", "X"], ["Weight", "X", "X"]]
    )
    s = read(t, "")
    assert [e["window"]["text"] for e in s["encounters"]] == ["±3 days", "±3 days"]


def test_a_row_of_times_under_the_visits_is_header_though_its_cells_look_like_marks():
    # "W0", "D1" have the shape of a mark with a footnote ("X1"); a row of them under the
    # visit numbers is the timing row, and days may repeat over cycles ("D1 ... D1")
    t = table(
        ["Visit No.", "1", "2", "3", "4", "5"],
        [
            ["Timing", "W-4 to -1", "W0", "W1 (±3d)", "EOT", "W0"],
            ["Consent", "X", "", "", "", ""],
            ["Vital signs", "X", "X", "X", "X", "X"],
        ],
    )
    schedule = read(t, "")
    assert [e["label"] for e in schedule["encounters"]][:3] == ["1 / W-4 to -1", "2 / W0", "3 / W1 (±3d)"]
    assert schedule["encounters"][2]["window"]["after"] == 3
    assert [a["label"] for a in schedule["activities"]] == ["Consent", "Vital signs"]
    assert not any("several marks" in d for d in schedule["diagnostics"])


def test_a_row_of_one_mark_per_visit_is_not_taken_for_times():
    # A mark letter that is no unit ("X1" is X with footnote 1) keeps the row in the body
    t = table(["Visit", "V1", "V2", "V3"], [["Consent", "X1", "X1", "X1"], ["ECG", "X", "", "X"]])
    schedule = read(t, "\n\n1 Signed first.")
    assert [a["label"] for a in schedule["activities"]] == ["Consent", "ECG"]


def test_group_labels_left_of_an_empty_sliver_column_still_label_their_rows():
    # columns: group | (empty sliver under the same header) | activity | visits
    t = table(
        ["Procedures", "Procedures", "", "Day 1", "Day 8", "Day 15"],
        [
            ["Safety", "", "Vital signs", "X", "X", "X"],
            ["", "", "ECG", "X", "", "X"],
            ["Adverse events", "", "", "X", "X", "X"],
            ["Laboratory", "", "Hematology", "X", "", ""],
        ],
    )
    schedule = read(t, "")
    assert [e["label"] for e in schedule["encounters"]] == ["Day 1", "Day 8", "Day 15"]
    assert [a["label"] for a in schedule["activities"]] == ["Vital signs", "ECG", "Adverse events", "Hematology"]
    assert [a["group"] for a in schedule["activities"]] == ["Safety", "Safety", None, "Laboratory"]


def test_a_group_abbreviated_in_two_capitals_still_labels_its_rows():
    # a continuation page: the group column holds "BM" and one label spanning both columns
    t = table(
        ["Visit Window", "", "Cycle 4 / Day 1", "EOT", "Follow-up"],
        [
            ["", "Ophthalmologic Assessments", "", "X", ""],
            ["", "BM Blood Sample", "X", "X", ""],
            ["BM", "ADA Blood Sample", "X", "X", "X"],
            ["Pharmacokinetics Sample", "", "", "X", ""],
        ],
    )
    schedule = read(t, "")
    assert [a["label"] for a in schedule["activities"]] == [
        "Ophthalmologic Assessments",
        "BM Blood Sample",
        "ADA Blood Sample",
        "Pharmacokinetics Sample",
    ]
    assert sum(m["activity"] == 3 for m in schedule["marks"]) == 1


def test_header_rows_in_the_body_a_visit_row_with_a_code_shaped_like_a_mark_and_an_empty_named_row():
    t = table(
        ["", "", "", "", ""],
        [
            ["Visit Number", "1", "2", "3", "ET"],
            ["Day of Week (Desirable)", "", "", "", ""],
            ["Vital signs", "X", "X", "X", "X"],
            ["ECG", "X", "", "", "X"],
        ],
    )
    schedule = read(t, "")
    assert [e["label"] for e in schedule["encounters"]] == ["1", "2", "3", "ET"]
    assert [a["label"] for a in schedule["activities"]] == ["Vital signs", "ECG"] and schedule["groups"] == []


def test_an_arrow_written_in_each_slot_of_its_merged_cell_runs_over_those_slots_only():
    arrow = "\u2190\u2014\u2014\u2192"
    t = table(
        ["Procedure", "Day 1", "Day 8", "Day 15", "Day 22", "Day 29"],
        [
            ["Consent", "X", "", "", "", ""],
            ["Diary", "X", "", arrow, arrow, ""],
            ["Diet", "X", "", arrow, "", ""],
        ],
    )
    schedule = read(t, "")

    def marked(a):
        return [schedule["encounters"][m["encounter"]]["label"] for m in schedule["marks"] if m["activity"] == a]

    assert marked(1) == ["Day 1", "Day 15", "Day 22"]  # the merged run, not the empty cells around it
    assert marked(2) == ["Day 1", "Day 8", "Day 15", "Day 22", "Day 29"]  # one cell: the empty cells it spans


def test_a_first_row_of_arrows_written_in_each_slot_is_body_not_header():
    arrow = "\u2190\u2014\u2014\u2192"
    t = table(
        ["Activity", "Screening", "Day 1", "Day 11", "End of Treatment"],
        [
            ["Physical examination", arrow, arrow, arrow, ""],
            ["12-lead ECG", "pre-dose", "", "", "pre-dose"],
            ["Urinalysis", "X", "", "", "X"],
        ],
    )
    schedule = read(t, "")
    assert [e["label"] for e in schedule["encounters"]] == ["Screening", "Day 1", "Day 11", "End of Treatment"]
    assert [a["label"] for a in schedule["activities"]] == ["Physical examination", "12-lead ECG", "Urinalysis"]


def test_a_name_cut_by_the_cells_line_breaks_is_no_epoch():
    """ "Screen or Day 0" printed over three lines: its top words end in "or", so they are the
    start of that visit's name, not a period over it (the study days beside it span columns)."""
    rows = [["Consent", "X", "", "", "", ""], ["Vital signs", "X", "X", "X", "X", "X"]]
    columns = ["Procedure", "Screen or / Baseline", "Treatment / Day 1", "Treatment / Day 7"]
    s = read(table(columns + ["Follow-up / Day 28", "Follow-up / Day 42"], rows))
    assert [e["label"] for e in s["epochs"]] == ["Treatment", "Follow-up"]
    assert [e["epoch"] for e in s["encounters"]] == [None, "Treatment", "Treatment", "Follow-up", "Follow-up"]
    assert s["encounters"][0]["label"].startswith("Screen or")


def test_the_legend_under_the_table_spells_out_its_abbreviations_in_order():
    assert read()["abbreviations"] == [{"abbreviation": "V", "expansion": "visit"}]
    notes = (
        "\n\na Before dosing.\n\n- Abbreviations: C-I = check-in; EOS/ET = End of Study or Early Termination, "
        "AUC(0-24) = area under the curve.\n\n[Table 2: PK sampling]\n\nAbbreviations: PK = pharmacokinetic."
    )
    assert read_legend(notes) == [
        {"abbreviation": "C-I", "expansion": "check-in"},
        {"abbreviation": "EOS/ET", "expansion": "End of Study or Early Termination"},
        {"abbreviation": "AUC(0-24)", "expansion": "area under the curve"},
    ]  # the next table's legend is its own
    assert read_legend("\n\na Before dosing.") == []
    assert legend_pairs("HIV= human immunodeficiency virus, X = performed at this visit") == [
        {"abbreviation": "HIV", "expansion": "human immunodeficiency virus"},
        {"abbreviation": "X", "expansion": "performed at this visit"},
    ]
    # the last pair runs on into a footnote or a sentence: they are no part of it
    assert legend_pairs("PK = pharmacokinetic(s) a At Visit 4: take the drug at the site.") == [
        {"abbreviation": "PK", "expansion": "pharmacokinetic(s)"}
    ]
    assert legend_pairs("ET = early termination. Visits are counted from Day 1.") == [
        {"abbreviation": "ET", "expansion": "early termination"}
    ]
    # one token each, and no cut at "e.g." or an article
    assert legend_pairs("AE = adverse event C-I = check-in") == [
        {"abbreviation": "AE", "expansion": "adverse event"},
        {"abbreviation": "C-I", "expansion": "check-in"},
    ]
    assert legend_pairs("FU = follow-up (e.g. Day 30); SD = given as a Single dose") == [
        {"abbreviation": "FU", "expansion": "follow-up (e.g. Day 30)"},
        {"abbreviation": "SD", "expansion": "given as a Single dose"},
    ]
