"""Endpoint cells (``objectives/cells.py``): one endpoint per bullet, the bullets the converter
dropped put back from the raw pipe table on the table's pages."""

from objectives_builders import document, flat, no_blocks, section

from clinparser.study.objectives import read_objectives
from clinparser.study.trace import Tracer

# The converter's table cells lose their bullets ("• " / "- " at a line start); the raw pipe table
# in the blocks keeps them, with <br> between a cell's lines.
RAW_TABLE = (
    "|**Objectives**|**Endpoints**|\n|---|---|\n|**Primary**||\n"
    "|To evaluate the effect of drug X on<br>itch at Week 12|Change from baseline to Week 12 in the<br>itch score|\n"
    "|**Secondary**||\n"
    "|To compare drug X with placebo on<br>hive control|\u2022 Proportion of participants with a hive<br>"
    "score of 6 or lower at Week 12<br>\u2022 Change from baseline to Week 12 in the<br>hive severity score|\n"
    "|To assess metabolic control|The secondary endpoints are as follows:<br>- Change from baseline in HbA1c<br>"
    "- Body weight|\n"
    "|To assess safety|Safety parameters:<br>\u2022 Adverse events<br>\u2022 Vital signs|"
)


CLEANED_TABLE = {
    "title": "Table 1: Objectives and Endpoints",
    "page": 3,
    "pages": [3],
    "columns": ["Objectives", "Endpoints"],
    "data": [
        ["Primary", ""],
        ["To evaluate the effect of drug X on\nitch at Week 12", "Change from baseline to Week 12 in the\nitch score"],
        ["Secondary", ""],
        [
            "To compare drug X with placebo on\nhive control",
            (
                "Proportion of participants with a hive\nscore of 6 or lower at Week 12\n"
                "Change from baseline to Week 12 in the\nhive severity score"
            ),
        ],
        [
            "To assess metabolic control",
            "The secondary endpoints are as follows:\nChange from baseline in HbA1c\nBody weight",
        ],
        ["To assess safety", "Safety parameters:\nAdverse events\nVital signs"],
    ],
}


def bulleted_table_document():
    return document(
        section("3", "Objectives and Endpoints", "[Table 1: Objectives and Endpoints]", (3, 3), [CLEANED_TABLE])
    )


def test_endpoint_cell_is_split_on_the_bullets_of_its_raw_table_block():
    blocks = [
        {
            "page": 3,
            "kind": "text",
            "bbox": [72, 90, 540, 110],
            "dropped": "",
            "text": "The objectives and endpoints are given in Table 1.",
        },
        {"page": 3, "kind": "table", "bbox": [72, 120, 540, 400], "dropped": "", "text": RAW_TABLE},
    ]
    objectives, diagnostics = read_objectives(bulleted_table_document(), Tracer(blocks))
    assert flat(objectives) == [
        (
            "primary",
            "Primary",
            "To evaluate the effect of drug X on itch at Week 12",
            "3",
            [("primary", "Primary", "Change from baseline to Week 12 in the itch score", "3")],
        ),
        (
            "secondary",
            "Secondary",
            "To compare drug X with placebo on hive control",
            "3",
            [
                (
                    "secondary",
                    "Secondary",
                    "Proportion of participants with a hive score of 6 or lower at Week 12",
                    "3",
                ),
                ("secondary", "Secondary", "Change from baseline to Week 12 in the hive severity score", "3"),
            ],
        ),
        # a lead-in announcing a list: its bullets are the endpoints (the unbulleted guess would
        # have kept "HbA1c Body weight" together)
        (
            "secondary",
            "Secondary",
            "To assess metabolic control",
            "3",
            [
                ("secondary", "Secondary", "Change from baseline in HbA1c", "3"),
                ("secondary", "Secondary", "Body weight", "3"),
            ],
        ),
        # a label: its bullets are one endpoint's parameters, as the cell reads without them
        (
            "secondary",
            "Secondary",
            "To assess safety",
            "3",
            [("secondary", "Secondary", "Safety parameters: Adverse events Vital signs", "3")],
        ),
    ]
    assert diagnostics == []
    second = objectives[1]["endpoints"][1]
    assert second["pages"] == [3] and second["boxes"] == [{"page": 3, "bbox": [72, 120, 540, 400]}]


def test_bullets_are_only_taken_from_a_raw_table_on_the_tables_pages():
    """Without the raw table (no blocks, or only on another page, or dropped) the cell is one
    endpoint, as the document prints it."""
    joined = (
        "secondary",
        "Secondary",
        "To compare drug X with placebo on hive control",
        "3",
        [
            (
                "secondary",
                "Secondary",
                (
                    "Proportion of participants with a hive score of 6 or lower at Week 12 "
                    "Change from baseline to Week 12 in the hive severity score"
                ),
                "3",
            )
        ],
    )
    elsewhere = [
        {"page": 9, "kind": "table", "bbox": [72, 120, 540, 400], "dropped": "", "text": RAW_TABLE},
        {"page": 3, "kind": "table", "bbox": [72, 120, 540, 400], "dropped": "header", "text": RAW_TABLE},
    ]
    for tracer in (no_blocks(), Tracer(elsewhere)):
        objectives, _ = read_objectives(bulleted_table_document(), tracer)
        assert flat(objectives)[1] == joined
