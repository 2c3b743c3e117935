"""Where objectives and endpoints are read (``objectives/sections.py``): the body before the
synopsis, endpoint sections of their own, no objectives section."""

from objectives_builders import document, flat, kinds, no_blocks, section

from clinparser.study.objectives import read_objectives


def test_synopsis_copy_is_not_taken():
    synopsis = section("", "Synopsis", "**Primary Objective:**\n\nTo study X (synopsis wording).\n", (2, 2))
    body = section(
        "3",
        "Objectives",
        "",
        (10, 10),
        subsections=[section("3.1", "Primary", "To study X in adults (body wording).", (10, 10))],
    )
    objectives, diagnostics = read_objectives(document(body, non_toc=[synopsis]), no_blocks())
    assert [o["text"] for o in objectives] == ["To study X in adults (body wording)."]
    assert kinds(diagnostics) == ["objective_without_endpoints"]


def test_synopsis_is_the_fallback_and_says_so():
    synopsis = section(
        "",
        "Protocol Synopsis",
        "**Primary Objective:**\n\nTo study X.\n\n"
        "**Primary Endpoint:**\n\n- X at week 2\n\n**Study Design:**\n\nOpen label.",
        (2, 2),
    )
    body = section("5", "Study Design", "Open label, one arm.", (10, 10))
    objectives, diagnostics = read_objectives(document(body, non_toc=[synopsis]), no_blocks())
    assert flat(objectives) == [("primary", "Primary", "To study X.", "", [("primary", "Primary", "X at week 2", "")])]
    assert kinds(diagnostics)[0] == "objectives_from_synopsis"


# --- layouts of protocols the readers were not developed on (issue 45) -----------------------


def test_endpoints_called_variables_in_a_section_of_their_own():
    objectives_section = section("4", "Study Objectives", "## Primary\n\nTo compare A with B.\n", (3, 3))
    variables = section(
        "5.3.3",
        "Efficacy Variables",
        "",
        (9, 9),
        subsections=[
            section("5.3.3.1", "Primary Variable", "The primary endpoint is ACR20 at Week 14.", (9, 9)),
            section(
                "5.3.3.2",
                "Key Secondary Variables",
                "Ranked key secondary endpoints are:\n\n1. Change in DAS28;\n\n2. Change in HAQ-DI;\n",
                (9, 9),
            ),
        ],
    )
    doc = document(objectives_section, section("5", "Methods", "", (9, 9), subsections=[variables]))
    objectives, _ = read_objectives(doc, no_blocks())
    endpoints = [(e["level"], e["text"]) for o in objectives for e in o["endpoints"]]
    assert endpoints == [
        ("primary", "The primary endpoint is ACR20 at Week 14."),
        ("secondary", "Change in DAS28;"),
        ("secondary", "Change in HAQ-DI;"),
    ]


def test_an_objectives_section_read_to_nothing_says_so():
    doc = document(section("3", "Objectives", "See the protocol summary for details of the design.\n", (5, 5)))
    objectives, diagnostics = read_objectives(doc, no_blocks())
    assert objectives == []
    assert kinds(diagnostics) == ["objectives_not_read"] and "'Objectives'" in diagnostics[0]["detail"]
    objectives, diagnostics = read_objectives(document(section("3", "Design", "Text.", (5, 5))), no_blocks())
    assert kinds(diagnostics) == ["no_objectives"]
