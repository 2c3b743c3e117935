"""ParseOptions (clinparser/convert/options.py): modes as StrEnums, a wrong one named at once."""

import json

import pytest

from clinparser import PDFParser
from clinparser.convert.options import Engine, LayoutMode, OcrMode, ParseOptions
from clinparser.errors import InputError


def test_strings_become_their_modes():
    options = ParseOptions(engine="docling", ocr="never", layout="full", workers=1)
    assert options.engine is Engine.DOCLING
    assert options.ocr is OcrMode.NEVER
    assert options.layout is LayoutMode.FULL
    assert not options.ocr_allowed
    assert ParseOptions(workers=1).ocr_allowed  # "auto" may OCR


def test_a_mode_writes_as_its_string():
    assert json.dumps({"ocr": ParseOptions(workers=1).ocr}) == '{"ocr": "auto"}'


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("engine", "tesseract", "unknown engine 'tesseract': choose one of pymupdf, docling"),
        ("ocr", "sometimes", "unknown OCR mode 'sometimes': choose one of auto, always, never"),
        ("layout", "fast", "unknown layout mode 'fast': choose one of full, auto"),
    ],
)
def test_a_wrong_mode_is_an_input_error_naming_the_choices(field, value, message):
    with pytest.raises(InputError) as raised:
        ParseOptions(workers=1, **{field: value})
    assert str(raised.value) == message


def test_the_api_names_a_wrong_mode_when_the_parser_is_made():
    with pytest.raises(InputError, match="unknown OCR mode 'maybe'"):
        PDFParser(ocr="maybe")
