"""yamlfmt writes documents that parse back to their data (the render no longer parses each one back): random
documents, the awkward multi-line strings a literal block cannot hold, and every YAML file of the example render."""
from __future__ import annotations

import json

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gpudash.base import yamlfmt
from gpudash.base.yamlfmt import COMMENT, dump_yaml, strip_comments
from gpudash.render import writer
from tests.thorough import examples

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
AWKWARD = [" leading space\nx", "two trailing\n\n", "\n", "\n\nstarts with breaks", "tab\tinside\nx",
           "\ttab first\nx", "a\u2028b\nc", "carriage\r\nreturn", "ends with space \nx ",
           "# not a comment\n- nor a list",
           "key: value\n  nested: no", "|\n>", "bom\ufeff\nx", "nul \x00\nx", "emoji 🚀\nok", "  \n  ", "x\n "]

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=30),
                    st.sampled_from(AWKWARD))
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.one_of(st.text(max_size=10), st.integers(), st.booleans()), inner, max_size=4),
    st.dictionaries(st.text(max_size=10), inner, max_size=3).map(lambda d: {COMMENT: "why\nit is so", **d})),
    max_leaves=20)


def _back(data) -> object:
    return yaml.load(dump_yaml(data, header="a header\nof two lines"), Loader=LOADER)


def test_awkward_multi_line_strings_read_back():
    for value in AWKWARD:
        assert _back({"k": value, "l": [value, {"m": value}]}) == {"k": value, "l": [value, {"m": value}]}, value


@settings(max_examples=examples(400), deadline=None)
@given(documents)
def test_random_documents_read_back(data):
    assert _back(data) == strip_comments(data)


def test_every_yaml_file_of_the_example_reads_back(example_files):
    checked = 0
    for path, data in example_files.items():
        text = writer.serialise(path, data)
        if isinstance(data, str) or path.endswith(".json"):
            continue
        assert yaml.load(text, Loader=LOADER) == strip_comments(data), path
        checked += 1
    assert checked > 50


@settings(max_examples=examples(400), deadline=None)
@given(st.one_of(st.text(alphabet=" a#:-|>'\"{}\t\r\n\u2028é", max_size=40), st.sampled_from(AWKWARD)))
def test_a_literal_block_taken_without_parsing_reads_back(value):
    """What yamlfmt writes as a literal block without parsing it back (:func:`yamlfmt._plain_lines`) parses back as
    written at any indentation."""
    if not yamlfmt._plain_lines(value):
        return
    for pad in ("", "    "):
        assert yaml.load(f"k:\n{pad}  m: {yamlfmt._literal(value, pad + '  ')}\n", Loader=LOADER) == {"k": {"m": value}}


def test_a_dashboard_is_a_literal_block_taken_without_parsing():
    text = json.dumps({"panels": [{"expr": 'sum(x{namespace="a"}) > 0 # not a comment', "title": "- b: c"}]},
                      indent=2) + "\n"
    assert yamlfmt._plain_lines(text)
    assert _back({"k": text}) == {"k": text}


def test_a_literal_block_taken_without_parsing_holds_printable_ascii_lines_only():
    """Every ASCII character: inside a line, taken as ``str.isprintable`` says (a control character or DEL is not:
    the block is then parsed back or quoted); "\\n" breaks the line."""
    for c in map(chr, range(128)):
        assert yamlfmt._plain_lines(f"a{c}b\n") == (c.isprintable() or c == "\n"), repr(c)
    assert not yamlfmt._plain_lines("é\n")


def _plain_lines_defined(value: str) -> bool:
    """:func:`yamlfmt._plain_lines` by its definition, line by line: printable ASCII lines, none empty or ending in a
    space, the first not starting with one, at most one "\\n" at the end."""
    lines = value.removesuffix("\n").split("\n")
    return (not lines[0].startswith(" ")
            and all(line and not line.endswith(" ") and all(" " <= c <= "~" for c in line) for line in lines))


HOSTILE_LINES = [" a", "a ", "", "a", "  {", "}", "\ta", "a\t", "a\rb", "a\r", "é", "a\u0085b", "a\u2028", "\u2029",
                 "\x7f", "\x00", "\"k\": 1,", "#", " \x0c"]


@settings(max_examples=examples(600), deadline=None)
@given(st.lists(st.sampled_from(HOSTILE_LINES), min_size=1, max_size=5), st.sampled_from(["", "\n", "\n\n", " \n"]))
def test_a_literal_block_taken_without_parsing_is_what_its_definition_says(lines, end):
    """Its scans (``rfind``, ``translate``) accept exactly the strings of printable ASCII lines its definition names
    (leading and trailing spaces, empty lines, CR, tabs, non-ASCII, NEL/LS/PS, a trailing "\\n" or two)."""
    value = "\n".join(lines) + end
    assert yamlfmt._plain_lines(value) == _plain_lines_defined(value), repr(value)


def test_a_literal_block_taken_without_parsing_refuses_its_two_pairs_anywhere():
    """An empty line or a line ending in a space at the start, middle or end of a 50 KB text: each one refused."""
    body = "{\n" + "\n".join(f"  \"line {i}\": {i}," for i in range(3000))
    assert yamlfmt._plain_lines(body + "\n")
    for at in (1, len(body) // 2, len(body) - 1):
        for pair in ("\n\n", " \n"):
            value = body[:at] + pair + body[at:]
            assert not yamlfmt._plain_lines(value) and not _plain_lines_defined(value), (at, pair)


def test_rows_of_one_shape_keep_each_key_and_value_apart():
    """A list of mappings of one shape is written by one format (yamlfmt._rows): its caches never take one key,
    value or indentation for another that is equal in Python (1, True, 1.0) or in text."""
    yamlfmt._inline_text.cache_clear()
    yamlfmt._row_heads.cache_clear()
    cases = {"- a: 1\n- a: 2\n": [{"a": 1}, {"a": 2}], "- a: true\n": [{"a": True}], "- a: 1.0\n": [{"a": 1.0}],
             "- a: '1'\n": [{"a": "1"}], "- 1: a\n": [{1: "a"}], "- true: a\n": [{True: "a"}],
             "- '{a}': '{b}'\n  c: null\n": [{"{a}": "{b}", "c": None}], "- a: |-\n    x\n    y\n": [{"a": "x\ny"}],
             "k:\n  - a: 1\nl:\n  m:\n    - a: 1\n": {"k": [{"a": 1}], "l": {"m": [{"a": 1}]}},
             "- a: 1\n- b: 1\n- a: []\n": [{"a": 1}, {"b": 1}, {"a": []}]}
    for text, data in cases.items():
        assert dump_yaml(data) == text
        assert yaml.load(text, Loader=LOADER) == data
