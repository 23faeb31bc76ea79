"""Round 26: one decision per principle, from the classes of blind cohort 18's tune half
(setting up a developer's machine from instructions read in READMEs and chats), in wordings of
this file's own (no corpus line is copied)."""

from __future__ import annotations

import pytest
from command_support import judged, rules


@pytest.mark.parametrize(
    "command",
    [
        "curl -o ~/Downloads/report.csv https://data.example.org/report.csv",
        "curl -sSfLo ../shared/fixture.json https://example.com/fixture.json",
        "wget -qO ~/notes/page.html https://example.com/",
    ],
)
def test_a_download_saved_outside_the_workspace_asks(command: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "ask" and "outside-workspace" in rules(analysis)


def test_a_download_saved_in_the_workspace_or_scratch_is_allowed() -> None:
    assert judged("curl -fsSLo data/page.html https://example.com/").decision == "allow"
    assert judged("curl -fsSL -o /tmp/page.html https://example.com/").decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "curl -fLo ~/.vim/autoload/pathogen.vim --create-dirs https://example.net/pathogen.vim",
        "wget -O ~/.config/nvim/lua/boot.lua https://example.net/boot.lua",
        "curl -o ~/.emacs.d/lisp/helper.el https://example.net/helper.el",
    ],
)
def test_a_download_into_an_editors_autoload_folder_is_denied(command: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "deny" and "download-exec" in rules(analysis)


def test_a_runtime_mirror_over_plain_http_is_denied() -> None:
    analysis = judged("RUSTUP_DIST_SERVER=http://mirror.example.net rustup update stable")
    assert analysis.decision == "deny" and "registry-insecure" in rules(analysis)
    analysis = judged("export NVM_NODEJS_ORG_MIRROR=http://cdn.example.net/dist; nvm install 22")
    assert analysis.decision == "deny"


def test_a_runtime_mirror_on_another_host_asks_and_the_official_one_is_allowed() -> None:
    analysis = judged("PYTHON_BUILD_MIRROR_URL=https://py.example.net pyenv install 3.12.4")
    assert analysis.decision == "ask" and "package-index" in rules(analysis)
    official = "RUSTUP_DIST_SERVER=https://static.rust-lang.org rustup update stable"
    assert judged(official).decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "make deploy STAGE=live",
        "gmake -j4 publish",
        "just promote v2.3.1",
        "npm run rollout:eu",
        "yarn ship",
        "task -d infra destroy",
        "make docker-push",
    ],
)
def test_a_project_task_named_for_shipping_asks(command: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "ask" and "outward-task" in rules(analysis)


@pytest.mark.parametrize(
    "command",
    [
        "make build ENV=production",
        "npm run build:prod",
        "npm run test:release-notes",
        "make check-deploy-config",
        "make -C docs html",
        "yarn lint",
    ],
)
def test_a_project_task_that_builds_or_checks_is_allowed(command: str) -> None:
    assert judged(command).decision == "allow"


def test_listing_the_permissions_along_a_path_is_allowed() -> None:
    assert judged("namei -l /usr/local/lib/node_modules").decision == "allow"
