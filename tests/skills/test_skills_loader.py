"""discover_skills on real folders: every problem in a skill file becomes a diagnostic."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workset.skills import Diagnostic, SkillLimits, discover_skills
from workset.testing import WordTokenizer

SkillFactory = Callable[..., Path]


def _only(diagnostics: tuple[Diagnostic, ...]) -> Diagnostic:
    assert len(diagnostics) == 1, diagnostics
    return diagnostics[0]


def test_a_valid_skill_loads_with_its_files_scripts_and_optional_fields(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    text = (
        "---\nname: deploy-app\ndescription: Deploy the app. Use when asked to deploy.\n"
        "license: MIT\ncompatibility: needs docker\nallowed-tools: shell read_file\n"
        'metadata:\n  author: ops\n  version: "2.1"\n---\n\n# Deploy\n\nRun the script.\n'
    )
    make_skill(
        "deploy-app",
        text=text,
        files={"references/steps.md": "steps", "scripts/deploy.sh": "echo hi", "a.txt": "a"},
    )
    skills, diagnostics = discover_skills(tmp_path / "skills")
    assert diagnostics == ()
    (skill,) = skills
    assert skill.name == "deploy-app"
    assert skill.description == "Deploy the app. Use when asked to deploy."
    assert skill.path == (tmp_path / "skills" / "deploy-app").resolve()
    assert skill.body == "# Deploy\n\nRun the script."
    assert skill.files == ("a.txt", "references/steps.md")
    assert skill.scripts == ("scripts/deploy.sh",)
    assert skill.license == "MIT"
    assert skill.compatibility == "needs docker"
    assert skill.allowed_tools == ("shell", "read_file")
    assert skill.metadata == {"author": "ops", "version": "2.1"}
    assert not skill.installed
    assert skill.trust == "untrusted"
    assert len(skill.sha256) == 64


def test_skills_come_back_sorted_by_name_whatever_the_folder_order(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    for name in ("zeta", "alpha", "mid-one"):
        make_skill(name)
    first, _ = discover_skills(tmp_path / "skills")
    second, _ = discover_skills(tmp_path / "skills")
    assert [s.name for s in first] == ["alpha", "mid-one", "zeta"]
    assert first == second


def test_windows_line_endings_are_read_like_unix_ones(tmp_path: Path) -> None:
    folder = tmp_path / "skills" / "crlf"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_bytes(b"---\r\nname: crlf\r\ndescription: d\r\n---\r\nA\r\nB\r\n")
    skills, diagnostics = discover_skills(tmp_path / "skills")
    assert diagnostics == () and skills[0].body == "A\nB"


def test_a_root_may_be_a_single_skill_folder(make_skill: SkillFactory) -> None:
    folder = make_skill("solo")
    skills, diagnostics = discover_skills(folder)
    assert [s.name for s in skills] == ["solo"] and diagnostics == ()


def test_invalid_yaml_is_a_diagnostic_with_the_line_and_a_fix(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    make_skill("broken", text="---\nname: broken\ndescription: [unclosed\n---\nbody\n")
    skills, diagnostics = discover_skills(tmp_path / "skills")
    problem = _only(diagnostics)
    assert skills == ()
    assert problem.severity == "error"
    assert problem.path.name == "SKILL.md"
    assert "not valid YAML on line" in problem.message
    assert "double quotes" in problem.message


def test_a_description_with_a_colon_is_reported_with_how_to_quote_it(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    make_skill("colon", text="---\nname: colon\ndescription: Use when: always\n---\nbody\n")
    problem = _only(discover_skills(tmp_path / "skills")[1])
    assert "not valid YAML on line 3" in problem.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# just markdown\n", "has no YAML frontmatter"),
        ("", "has no YAML frontmatter"),
        ("---\nname: x\ndescription: y\n", "never closed"),
        ("---\n---\nbody\n", "frontmatter is empty"),
        ("---\n- a\n- b\n---\nbody\n", "not a mapping of fields"),
    ],
)
def test_a_missing_or_malformed_frontmatter_is_a_diagnostic(
    make_skill: SkillFactory, tmp_path: Path, text: str, expected: str
) -> None:
    make_skill("bad", text=text)
    skills, diagnostics = discover_skills(tmp_path / "skills")
    assert skills == ()
    problem = _only(diagnostics)
    assert problem.severity == "error"
    assert expected in problem.message


def test_a_missing_name_says_which_line_to_add(make_skill: SkillFactory, tmp_path: Path) -> None:
    make_skill("nameless", text="---\ndescription: Does things.\n---\nbody\n")
    problem = _only(discover_skills(tmp_path / "skills")[1])
    assert "'name' is missing" in problem.message
    assert "name: nameless" in problem.message


def test_a_missing_description_asks_for_when_to_use_the_skill(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    make_skill("quiet", text="---\nname: quiet\ndescription: '  '\n---\nbody\n")
    problem = _only(discover_skills(tmp_path / "skills")[1])
    assert "'description' is missing" in problem.message
    assert "when to use" in problem.message


def test_missing_name_and_description_are_both_reported(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    make_skill("empty", text="---\nlicense: MIT\n---\nbody\n")
    _, diagnostics = discover_skills(tmp_path / "skills")
    assert len(diagnostics) == 2
    assert {d.severity for d in diagnostics} == {"error"}


def test_a_name_that_differs_from_the_folder_says_how_to_reconcile_them(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    make_skill("folder-name", text="---\nname: other-name\ndescription: d\n---\nbody\n")
    skills, diagnostics = discover_skills(tmp_path / "skills")
    problem = _only(diagnostics)
    assert skills == ()
    assert "does not match the folder name 'folder-name'" in problem.message
    assert "name: folder-name" in problem.message


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("PDF-Tools", "'pdf-tools'"),
        ("-lead", "not at the start or end"),
        ("double--dash", "single hyphens"),
        ("snake_case", "'snake-case'"),
        ("a" * 65, "at most 64"),
    ],
)
def test_a_name_breaking_the_rules_is_a_diagnostic_with_a_suggestion(
    make_skill: SkillFactory, tmp_path: Path, name: str, expected: str
) -> None:
    make_skill(name, text=f"---\nname: '{name}'\ndescription: d\n---\nbody\n")
    skills, diagnostics = discover_skills(tmp_path / "skills")
    assert skills == ()
    assert expected in _only(diagnostics).message


def test_a_name_that_is_not_text_is_a_diagnostic(make_skill: SkillFactory, tmp_path: Path) -> None:
    make_skill("404", text="---\nname: 404\ndescription: d\n---\nbody\n")
    assert "'name' must be text, not int" in _only(discover_skills(tmp_path / "skills")[1]).message


def test_a_description_over_1024_characters_is_refused(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    make_skill("wordy", description="x" * 1025)
    problem = _only(discover_skills(tmp_path / "skills")[1])
    assert "1,025 characters (at most 1,024)" in problem.message


def test_an_oversized_body_is_refused_with_the_configured_character_limit(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    make_skill("big", body="word " * 300)
    skills, diagnostics = discover_skills(
        tmp_path / "skills", limits=SkillLimits(max_body_chars=1000)
    )
    assert skills == ()
    problem = _only(diagnostics)
    assert "limit 1,000" in problem.message
    assert "reference files" in problem.message
    assert discover_skills(tmp_path / "skills")[0] != ()  # the default limit admits it


def test_an_oversized_body_in_tokens_is_refused_when_a_tokenizer_is_given(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    make_skill("big", body="word " * 300)
    limits = SkillLimits(max_body_tokens=100)
    skills, diagnostics = discover_skills(
        tmp_path / "skills", limits=limits, tokenizer=WordTokenizer()
    )
    assert skills == ()
    assert "tokens (limit 100)" in _only(diagnostics).message


def test_an_unreadable_skill_file_is_a_diagnostic(make_skill: SkillFactory, tmp_path: Path) -> None:
    folder = make_skill("gone")
    (folder / "SKILL.md").unlink()
    (folder / "SKILL.md").symlink_to(tmp_path / "nowhere.md")
    problem = _only(discover_skills(tmp_path / "skills")[1])
    assert "symbolic link" in problem.message


def test_a_skill_file_that_is_not_utf8_is_a_diagnostic(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    folder = make_skill("latin")
    (folder / "SKILL.md").write_bytes(b"---\nname: latin\ndescription: caf\xe9\n---\n")
    assert "save it as UTF-8" in _only(discover_skills(tmp_path / "skills")[1]).message


def test_a_skill_file_that_is_a_folder_is_a_diagnostic(tmp_path: Path) -> None:
    (tmp_path / "skills" / "odd" / "SKILL.md").mkdir(parents=True)
    assert "not a regular file" in _only(discover_skills(tmp_path / "skills")[1]).message


def test_duplicate_names_across_roots_keep_the_first_and_report_the_second(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    first = make_skill("shared", root=tmp_path / "project", description="Project copy.")
    second = make_skill("shared", root=tmp_path / "user", description="User copy.")
    skills, diagnostics = discover_skills(tmp_path / "project", tmp_path / "user")
    assert [(s.name, s.description) for s in skills] == [("shared", "Project copy.")]
    problem = _only(diagnostics)
    assert problem.path == (second / "SKILL.md").resolve()
    assert str(first.resolve()) in problem.message
    assert "already taken" in problem.message


def test_a_misnamed_skill_file_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "skills" / "lower"
    folder.mkdir(parents=True)
    (folder / "skill.md").write_text("---\nname: lower\ndescription: d\n---\n")
    problem = _only(discover_skills(tmp_path / "skills")[1])
    assert "rename skill.md" in problem.message


def test_a_missing_root_is_a_warning_not_an_exception(tmp_path: Path) -> None:
    skills, diagnostics = discover_skills(tmp_path / "absent")
    assert skills == ()
    assert _only(diagnostics).severity == "warning"


def test_folders_without_a_skill_file_and_hidden_folders_are_ignored(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    (tmp_path / "skills" / "notes").mkdir(parents=True)
    make_skill(".hidden")
    make_skill("real")
    skills, diagnostics = discover_skills(tmp_path / "skills")
    assert [s.name for s in skills] == ["real"] and diagnostics == ()


def test_unknown_fields_and_bad_optional_fields_are_warnings_and_the_skill_still_loads(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    text = (
        "---\nname: loose\ndescription: d\nauthor: me\nlicense: 3\nallowed-tools: {a: 1}\n"
        "metadata: [1, 2]\ncompatibility: " + "c" * 501 + "\n---\nbody\n"
    )
    make_skill("loose", text=text)
    skills, diagnostics = discover_skills(tmp_path / "skills")
    assert [s.name for s in skills] == ["loose"]
    assert {d.severity for d in diagnostics} == {"warning"}
    messages = " | ".join(d.message for d in diagnostics)
    assert "unknown field 'author'" in messages and "under 'metadata'" in messages
    assert "'license' must be text" in messages
    assert "'allowed-tools'" in messages
    assert "'metadata' must map names" in messages
    assert "'compatibility' has 501 characters" in messages
    assert skills[0].license == "" and skills[0].allowed_tools == () and skills[0].metadata == {}


def test_an_empty_body_is_a_warning(make_skill: SkillFactory, tmp_path: Path) -> None:
    make_skill("hollow", text="---\nname: hollow\ndescription: d\n---\n")
    skills, diagnostics = discover_skills(tmp_path / "skills")
    assert len(skills) == 1
    assert "no instructions" in _only(diagnostics).message


def test_a_symlink_leading_out_of_the_skill_is_reported_and_not_listed(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    (tmp_path / "secret.txt").write_text("password")
    folder = make_skill("leaky", files={"ok.md": "fine"})
    (folder / "escape.md").symlink_to(tmp_path / "secret.txt")
    (folder / "alias.md").symlink_to(folder / "ok.md")
    skills, diagnostics = discover_skills(tmp_path / "skills")
    assert skills[0].files == ("alias.md", "ok.md")
    problem = _only(diagnostics)
    assert problem.severity == "warning"
    assert "escape.md is a symbolic link" in problem.message


def test_a_folder_with_too_many_files_is_refused(make_skill: SkillFactory, tmp_path: Path) -> None:
    make_skill("hoard", files={f"data/{i}.txt": "x" for i in range(6)})
    skills, diagnostics = discover_skills(tmp_path / "skills", limits=SkillLimits(max_files=5))
    assert skills == ()
    assert "more than 5 files" in _only(diagnostics).message


def test_the_folder_hash_changes_with_any_file_and_only_then(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    folder = make_skill("hashed", files={"references/a.md": "one"})
    before = discover_skills(tmp_path / "skills")[0][0].sha256
    assert discover_skills(tmp_path / "skills")[0][0].sha256 == before
    (folder / "references" / "a.md").write_text("two")
    changed = discover_skills(tmp_path / "skills")[0][0].sha256
    (folder / "references" / "b.md").write_text("new")
    added = discover_skills(tmp_path / "skills")[0][0].sha256
    assert len({before, changed, added}) == 3


@pytest.mark.parametrize(
    "garbage",
    [
        b"\x00\x01\x02",
        b"---\n: : :\n---\n",
        b"---\nname: &a [*a]\n---\n",
        b"---\nname: !!python/object:os.system echo\ndescription: d\n---\n",
        b"---\r\nname: crlf\r\ndescription: d\r\n---\r\nbody\r\n",
        b"---\nname: " + b"[" * 3000 + b"]" * 3000 + b"\n---\n",
    ],
)
def test_garbage_skill_files_never_raise(tmp_path: Path, garbage: bytes) -> None:
    folder = tmp_path / "skills" / "crlf"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_bytes(garbage)
    skills, diagnostics = discover_skills(tmp_path / "skills")
    assert skills or diagnostics


@settings(max_examples=60, deadline=None)
@given(
    front=st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=200),
    body=st.text(max_size=100),
)
def test_any_frontmatter_text_gives_a_skill_or_a_diagnostic_and_never_raises(
    front: str, body: str
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "fuzz"
        folder.mkdir()
        (folder / "SKILL.md").write_text(f"---\n{front}\n---\n{body}", encoding="utf-8")
        skills, diagnostics = discover_skills(tmp)
        assert skills or any(d.severity == "error" for d in diagnostics)
