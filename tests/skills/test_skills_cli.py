"""``workset skills list`` and ``install``, driven through click on real folders."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from workset.cli.skills import skills_group
from workset.skills import catalog_text, discover_skills

SkillFactory = Callable[..., Path]
EXAMPLES = Path(__file__).parents[2] / "examples" / "skills"


def test_list_prints_the_catalog_the_model_sees_and_each_skills_trust() -> None:
    result = CliRunner().invoke(skills_group, ["list", "--dir", str(EXAMPLES)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(catalog_text(discover_skills(EXAMPLES)[0]) + "\n")
    assert "read-service-config: not installed (untrusted); 1 files, 1 scripts;" in result.stdout
    assert result.stderr == ""


def test_list_prints_diagnostics_and_check_fails_on_errors(
    make_skill: SkillFactory, tmp_path: Path
) -> None:
    make_skill("good")
    make_skill("bad", text="---\nname: wrong\ndescription: d\n---\nbody\n")
    args = ["list", "--dir", str(tmp_path / "skills")]
    result = CliRunner().invoke(skills_group, args)
    assert result.exit_code == 0
    assert "- good:" in result.stdout
    assert "error: " in result.stderr and "does not match the folder name 'bad'" in result.stderr
    assert "1 error(s), 0 warning(s)" in result.stderr
    assert CliRunner().invoke(skills_group, [*args, "--check"]).exit_code == 1


def test_list_says_when_there_are_no_skills(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(skills_group, ["list", "--dir", str(tmp_path / "empty")])
    assert result.exit_code == 0
    assert f"No skills found in {tmp_path / 'empty'}." in result.stdout


def test_install_then_list_shows_the_skill_as_installed(tmp_path: Path) -> None:
    target = tmp_path / "skills"
    source = EXAMPLES / "summarize-log-errors"
    result = CliRunner().invoke(skills_group, ["install", str(source), "--dir", str(target)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"installed summarize-log-errors at {target.resolve()}")
    listed = CliRunner().invoke(skills_group, ["list", "--dir", str(target)]).stdout
    assert "summarize-log-errors: installed;" in listed
    again = CliRunner().invoke(skills_group, ["install", str(source), "--dir", str(target)])
    assert again.exit_code != 0 and "already installed" in str(again.exception)
