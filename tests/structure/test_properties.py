"""Property tests on the numbering parser and the tree builder (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from clinparser.content.assemble import assemble
from clinparser.model import HEADING, LIST_ITEM, TEXT, Block
from clinparser.structure.outline import OutlineIndex
from clinparser.structure.sections import choose_sections, find_candidates

numbers = st.lists(st.integers(1, 4), min_size=1, max_size=4).map(lambda parts: ".".join(map(str, parts)))
kinds = st.sampled_from([HEADING, TEXT, LIST_ITEM])


@st.composite
def documents(draw):
    """Random blocks: numbered lines of random kinds between uniquely marked body paragraphs."""
    blocks, markers = [], []
    for k in range(draw(st.integers(0, 40))):
        if draw(st.booleans()):
            num = draw(numbers)
            title = draw(st.sampled_from(["Background", "Study design", "Participants aged 18 and over.", "Dose"]))
            blocks.append(Block(1 + k // 10, None, draw(kinds), f"{num} {title}"))
        marker = f"body-{k}-marker"
        markers.append(marker)
        blocks.append(Block(1 + k // 10, None, TEXT, f"Paragraph {marker} text."))
    return blocks, markers


def _walk(nodes, parent_key=()):
    for node in nodes:
        yield node, parent_key
        yield from _walk(node.subsections, node.key)


def _tree(blocks):
    choice = choose_sections(find_candidates(blocks, OutlineIndex([])))
    keys = {c.block: c.key for c in choice.sections}
    tree = assemble(blocks, choice.sections, set())
    return tree, choice, keys


@settings(max_examples=300, deadline=None)
@given(documents())
def test_tree_invariants(doc):
    blocks, markers = doc
    tree, choice, _ = _tree(blocks)
    by_number = {c.number.label: c.key for c in choice.sections}
    for node, _ in _walk(tree.toc):
        node.key = by_number[node.number]
    for node, parent_key in _walk(tree.toc):
        # every node's number extends its parent's
        assert node.key[: len(parent_key)] == parent_key and len(node.key) > len(parent_key)
    for siblings in [tree.toc] + [n.subsections for n, _ in _walk(tree.toc)]:
        keys = [s.key for s in siblings]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)  # siblings in order, no repeats
    texts = [n.text for n, _ in _walk(tree.toc)] + [n.text for n in tree.non_toc]
    for marker in markers:
        assert sum(t.count(marker) for t in texts) == 1, marker  # in exactly one node, once


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=80), max_size=30))
def test_arbitrary_text_never_crashes(lines):
    blocks = [Block(1, None, HEADING if k % 3 == 0 else TEXT, line) for k, line in enumerate(lines)]
    tree, _, _ = _tree(blocks)
    assert isinstance(tree.toc, list)
