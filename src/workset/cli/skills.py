"""``workset skills``: list the skills an agent would see, and install one deliberately."""

from __future__ import annotations

from pathlib import Path

import click

from workset.skills import catalog_text, default_skill_dirs, discover_skills, install_skill

_DIR_HELP = "A folder of skills (or one skill folder); repeat for several, first wins."


@click.group("skills", help="List Agent Skills and their problems; install a skill.")
def skills_group() -> None:
    pass


@skills_group.command("list")
@click.option(
    "--dir",
    "dirs",
    multiple=True,
    type=click.Path(path_type=Path),
    help=f"{_DIR_HELP}  [default: ./.agents/skills, ~/.agents/skills]",
)
@click.option("--check", is_flag=True, help="Exit with status 1 when any skill has an error.")
def list_skills(dirs: tuple[Path, ...], check: bool) -> None:
    """Print the catalog exactly as the model sees it, each skill's folder and trust, and
    every problem found in the skill files, with how to fix it."""
    roots = dirs or tuple(d for d in default_skill_dirs() if d.exists())
    skills, diagnostics = discover_skills(*roots)
    if skills:
        click.echo(catalog_text(skills))
        click.echo("")
        for skill in skills:
            trust = "installed" if skill.installed else "not installed (untrusted)"
            extra = f"{len(skill.files)} files, {len(skill.scripts)} scripts"
            click.echo(f"{skill.name}: {trust}; {extra}; {skill.path}")
    else:
        where = ", ".join(str(r) for r in roots) or "./.agents/skills or ~/.agents/skills"
        click.echo(f"No skills found in {where}.")
    for diagnostic in diagnostics:
        click.echo(str(diagnostic), err=True)
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = len(diagnostics) - errors
    if diagnostics:
        click.echo(f"{errors} error(s), {warnings} warning(s)", err=True)
    if check and errors:
        raise SystemExit(1)


@skills_group.command("install")
@click.argument("source", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--dir",
    "skills_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path(".agents/skills"),
    show_default=True,
    help="The skills folder to install into (its skills.lock records the hash).",
)
@click.option("--replace", is_flag=True, help="Overwrite an installed skill of the same name.")
def install(source: Path, skills_dir: Path, replace: bool) -> None:
    """Copy the skill folder SOURCE into the skills folder and trust its current content.

    Review the skill first: its instructions and scripts will be followed as rules. Installing
    a folder that is already in place approves its current content after a change.
    """
    skill = install_skill(source, skills_dir, replace=replace)
    click.echo(f"installed {skill.name} at {skill.path} (sha256 {skill.sha256[:12]})")
