"""read_identity on hand-built documents (dicts shaped like document.json / blocks.json): the
whole identity of one document, and what is not taken from where. Each part has its own file:
test_front_matter.py, test_identifiers.py, test_phase.py, test_sponsor.py."""

from identity_builders import TITLE, block, node, title_page_blocks  # noqa: F401

from clinparser.study.identity import read_identity


def document():
    title_page = node(
        "Clinical Study Protocol",
        "[Table]\n\n**Short Title:** Drugamab in Moderate to Severe Disease\n\n**Acronym:** BRIGHT\n\n"
        "**Sponsor Name:** Example Therapeutics, Inc. 12 Main Street, Springfield\n\n"
        "|IND Number:|123456|\n|---|---|\n|EudraCT Number:|2019-001234-56|",
        pages=(1, 1),
        tables=[
            {
                "title": "",
                "page": 1,
                "pages": [1, 1],
                "columns": ["Protocol Title:", TITLE],
                "data": [["Protocol Number:", "EXT-301"], ["Study Phase:", "Phase IIIa"]],
            }
        ],
    )
    history = node(
        "Protocol Amendment History", "Section: Title page\n\nDelete:\n\nEudraCT Number: 2012-002805-23", pages=(2, 2)
    )
    synopsis = node(
        "Synopsis",
        "**Protocol Number:** EXT-301\n\n**NCT Number:** NCT01234567\n\n"
        "Background: the earlier trial NCT07654321 showed benefit.",
        pages=(3, 3),
        number="1",
    )
    background = node(
        "Background",
        "The parent trial (NCT09999999; EudraCT 2010-024251-87) enrolled 600 patients.",
        pages=(4, 4),
        number="2",
    )
    return {"toc": [synopsis, background], "non_toc": [title_page, history], "metadata": {}}


def test_identity_of_a_title_page_table_header_and_synopsis():
    identity, diagnostics = read_identity(document(), title_page_blocks())
    assert identity["titles"] == {
        "official": {"text": TITLE, "page": 1},
        "short": {"text": "Drugamab in Moderate to Severe Disease", "page": 1},
        "acronym": {"text": "BRIGHT", "page": 1},
    }
    assert identity["identifiers"] == [
        {"kind": "sponsor", "text": "EXT-301", "page": 1, "source": "title page"},
        {"kind": "ind", "text": "123456", "page": 1, "source": "title page"},
        {"kind": "eudract", "text": "2019-001234-56", "page": 1, "source": "title page"},
        {"kind": "utn", "text": "U1111-1234-5678", "page": 3, "source": "header"},
        {"kind": "nct", "text": "NCT01234567", "page": 3, "source": "synopsis"},
    ]
    assert identity["phase"] == {"value": "3", "printed": "Phase IIIa"}
    assert identity["sponsor"] == {"text": "Example Therapeutics, Inc.", "page": 1}
    assert not [d for d in diagnostics if d["kind"] == "identifier_disagreement"]


def test_cited_and_deleted_numbers_are_not_taken():
    identity, _ = read_identity(document(), title_page_blocks())
    texts = {i["text"] for i in identity["identifiers"]}
    assert "NCT07654321" not in texts  # cited in the synopsis's background sentence
    assert "NCT09999999" not in texts and "2010-024251-87" not in texts  # another trial, background
    assert "2012-002805-23" not in texts  # deleted in the amendment history


def test_deterministic():
    assert read_identity(document(), title_page_blocks()) == read_identity(document(), title_page_blocks())


def test_a_named_title_with_no_label_wins_over_a_signature_blocks_title_field():
    title = (
        "HERTHENA-Lung02: A Phase 2 Randomized Open-Label Study of Drugamab in Subjects with Previously "
        "Treated Metastatic Lung Cancer"
    )
    title_page = node("Clinical Study Protocol", f"# **{title}**\n\n**PROTOCOL NUMBER: DX-201**", pages=(1, 1))
    agreement = node(
        "Investigator Agreement",
        "This clinical study protocol has been reviewed and approved by the "
        "sponsor's study representative listed below.\n\n**Print Name Signature**\n\n"
        "**Title Date (DD MMM YYYY)**",
        pages=(2, 2),
    )
    doc = {"toc": [], "non_toc": [title_page, agreement], "metadata": {}}
    blks = [
        block(1, f"# **{title}**", kind="heading"),
        block(1, "**PROTOCOL NUMBER: DX-201**"),
        block(2, "**Title Date (DD MMM YYYY)**"),
    ]
    identity, _ = read_identity(doc, blks)
    assert identity["titles"]["official"] == {"text": title, "page": 1}
    assert identity["titles"]["acronym"] == {"text": "HERTHENA-Lung02", "page": 1}


def test_a_title_cut_at_a_title_page_line_is_completed_by_its_full_printing():
    # the title page breaks the title before its last, centred line; the signature page's
    # "Title:" field prints it whole, and a longer printing that is another text does not replace it
    cut = (
        "A Randomized, Double-Blind, Placebo-Controlled, Phase 3 Crossover Trial of Drugex for On-Demand "
        "Treatment of Attacks in Adolescent and Adult Patients with Hereditary"
    )
    full = f"{cut} Angioedema Type I or II"
    title_page = node(
        "Title Page",
        f"# **PROTOCOL TITLE**\n\n{cut}\n\nAngioedema Type I or II\n\nProtocol Number: DX-301",
        pages=(1, 1),
    )
    signatures = node(
        "Signature Page",
        f"**Title:** {full}\n\n**Study Title:** A Phase 2 Study of Another Drug in "
        "Patients with Asthma and Other Conditions",
        pages=(2, 2),
        number="1",
    )
    doc = {"toc": [signatures], "non_toc": [title_page], "metadata": {}}
    blks = [
        block(1, "# **PROTOCOL TITLE**", kind="heading"),
        block(1, cut),
        block(1, "Angioedema Type I or II"),
        block(1, "Protocol Number: DX-301"),
        block(2, f"Title: {full}"),
    ]
    identity, _ = read_identity(doc, blks)
    assert identity["titles"]["official"] == {"text": full, "page": 1}


def test_a_complete_title_is_not_run_on_into_the_next_fields_label():
    title = "A Phase 2b, Randomized, Double-Blind Study of Drugex in Adults with Ulcerative Colitis (RELIEVE)"
    title_page = node("Title Page", f"# **PROTOCOL TITLE**\n\n{title}\n\nProtocol Number: DX-302", pages=(1, 1))
    signatures = node(
        "Signature Page", f"**Title:** {title} Regulatory Agency Identifier Number:", pages=(2, 2), number="1"
    )
    doc = {"toc": [signatures], "non_toc": [title_page], "metadata": {}}
    blks = [
        block(1, "# **PROTOCOL TITLE**", kind="heading"),
        block(1, title),
        block(1, "Protocol Number: DX-302"),
        block(2, f"Title: {title} Regulatory Agency Identifier Number:"),
    ]
    identity, _ = read_identity(doc, blks)
    assert identity["titles"]["official"]["text"] == title


def test_a_title_abbreviating_versus_and_trial_is_read_and_ends_before_the_numbers_after_it():
    # an investigator's protocol: "Title: RCT of A vs B ... NCT01035099 Protocol ID: 0811010075" on one line
    line = "Title: RCT of Fixed vs Titrated Zelomab in Gout Patients NCT01035099 Protocol ID: 0811010075"
    title_page = node("Title page", line, pages=(1, 1))
    plan = node("Research Plan", "**Study Design** (for example, hypothesis, research question):", pages=(2, 2))
    doc = {"toc": [], "non_toc": [title_page, plan], "metadata": {}}
    identity, _ = read_identity(doc, [block(1, line), block(2, "**Study Design** (for example, hypothesis):")])
    assert identity["titles"]["official"] == {"text": "RCT of Fixed vs Titrated Zelomab in Gout Patients", "page": 1}


def test_a_registry_number_inside_a_title_stays_in_it():
    line = "Title: A Phase 3 Extension Study for Participants Who Completed Study NCT01234567"
    doc = {"toc": [], "non_toc": [node("Title page", line, pages=(1, 1))], "metadata": {}}
    identity, _ = read_identity(doc, [block(1, line)])
    assert identity["titles"]["official"]["text"].endswith("Who Completed Study NCT01234567")
