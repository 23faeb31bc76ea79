"""Dependencies named into the project by the ecosystem's own command, judged by who owns them.

``cargo add serde``, ``go get github.com/stretchr/testify@v1.9.0``, ``bundle add rspec``,
``dotnet add package Serilog`` and ``pipenv install requests`` write a dependency into the
project's manifest (and its lockfile, and the tool's download cache), as ``npm install --save-dev
vitest`` does: nothing leaves the workspace but the download, and what the project builds and
runs next is the project's business. What a stranger can publish is the risk, so a name runs
when it is one of the ecosystem's widely used packages, or lives where only its owner can
publish (Go modules under their owners' paths, NuGet's reserved ``Microsoft.``/``System.``
prefixes); a near miss of a popular name is denied as the typosquat it is (``cargo add
serde_jsno``), and any other name, another source (``--git``, ``--source``, ``--registry``) or
a local path outside the workspace asks. ``go get`` of the module's own packages (``go get -u
./...``) and ``pipenv install`` with no name (what the Pipfile declares) run.
"""

from __future__ import annotations

from collections.abc import Iterator

from workset.safety.rules import typosquat
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result
from workset.safety.rules.confinement import inside

CRATES = frozenset({
    "serde", "serde_json", "serde_yaml", "serde_with", "tokio", "tokio_util", "tokio_stream",
    "tokio_test", "anyhow", "thiserror", "clap", "reqwest", "rand", "regex", "log",
    "env_logger", "tracing", "tracing_subscriber", "tracing_appender", "chrono", "time",
    "uuid", "once_cell", "lazy_static", "itertools", "futures", "async_trait", "axum", "hyper",
    "tower", "tower_http", "sqlx", "diesel", "rayon", "bytes", "base64", "criterion",
    "proptest", "tempfile", "insta", "mockall", "toml", "dashmap", "parking_lot", "crossbeam",
    "libc", "nix", "walkdir", "indicatif", "color_eyre", "eyre", "pretty_assertions",
    "actix_web", "rocket", "warp", "tonic", "prost", "url", "http", "hex", "sha2", "ring",
    "rustls", "openssl", "num", "bitflags", "strum", "derive_more", "smallvec", "memchr",
    "glob", "dirs", "directories", "console", "dialoguer", "colored", "termcolor", "notify",
    "ctrlc", "humantime", "semver", "petgraph", "ndarray", "image", "wasm_bindgen", "js_sys",
    "web_sys", "validator", "jsonwebtoken", "argon2", "bcrypt", "redis", "mongodb",
    "rusqlite", "sea_orm", "aws_sdk_s3", "aws_config", "mime", "async_std", "flume", "rstest",
    "serial_test", "wiremock", "assert_cmd", "predicates", "approx", "quickcheck", "tokio_postgres",
})  # fmt: skip
GEMS = frozenset({
    "rails", "rake", "rspec", "rspec-rails", "rspec-core", "rubocop", "rubocop-rails",
    "rubocop-rspec", "rubocop-performance", "standard", "pry", "pry-byebug", "byebug", "debug",
    "puma", "sinatra", "nokogiri", "devise", "sidekiq", "factory_bot", "factory_bot_rails",
    "faker", "capybara", "minitest", "dotenv", "dotenv-rails", "rack", "rack-test", "rack-cors",
    "json", "httparty", "faraday", "redis", "pg", "mysql2", "sqlite3", "bcrypt", "jwt",
    "simplecov", "webmock", "vcr", "bootsnap", "jbuilder", "kaminari", "pundit", "cancancan",
    "solargraph", "irb", "thor", "activerecord", "activesupport", "bundler",
    "shoulda-matchers", "database_cleaner", "timecop", "aws-sdk-s3", "graphql", "grape",
    "listen", "spring", "web-console", "turbo-rails", "stimulus-rails", "importmap-rails",
    "tzinfo-data", "guard", "yard", "oj", "zeitwerk", "selenium-webdriver", "rubocop-minitest",
})  # fmt: skip
NUGET = frozenset(n.lower() for n in (
    "Newtonsoft.Json", "Serilog", "Serilog.AspNetCore", "Serilog.Sinks.Console",
    "Serilog.Sinks.File", "xunit", "xunit.runner.visualstudio", "NUnit", "NUnit3TestAdapter",
    "MSTest.TestFramework", "MSTest.TestAdapter", "Moq", "NSubstitute", "FluentAssertions",
    "FluentValidation", "AutoMapper", "Dapper", "Polly", "MediatR", "Swashbuckle.AspNetCore",
    "coverlet.collector", "Npgsql", "Npgsql.EntityFrameworkCore.PostgreSQL",
    "StackExchange.Redis", "Bogus", "Humanizer", "CsvHelper", "RestSharp", "NLog", "Shouldly",
    "BenchmarkDotNet", "Hangfire", "MassTransit", "Grpc.Net.Client", "Google.Protobuf",
))  # fmt: skip
# NuGet reserves these prefixes for their owners: nobody else can publish under them.
_NUGET_OWNED = ("microsoft.", "system.", "azure.", "awssdk.", "google.cloud.", "grpc.")
# Go modules are named by where they live: only their owners publish under these paths.
_GO_OWNED = ("golang.org/x/", "google.golang.org/", "go.uber.org/", "gopkg.in/yaml.", "gorm.io/",
             "github.com/stretchr/testify", "github.com/spf13/", "github.com/google/",
             "github.com/gin-gonic/", "github.com/sirupsen/logrus", "github.com/gorilla/",
             "github.com/pkg/errors", "github.com/labstack/echo", "github.com/go-chi/",
             "github.com/jackc/", "github.com/prometheus/", "github.com/golang-jwt/jwt",
             "github.com/redis/go-redis", "github.com/aws/aws-sdk-go", "github.com/urfave/cli",
             "github.com/rs/zerolog", "github.com/joho/godotenv", "github.com/lib/pq",
             "github.com/mattn/go-sqlite3", "github.com/go-sql-driver/mysql",
             "github.com/golang/", "github.com/hashicorp/", "github.com/grpc-ecosystem/",
             "k8s.io/", "sigs.k8s.io/", "github.com/cenkalti/backoff",
             "github.com/google/uuid")  # fmt: skip
# Options that name another source: the package is not the index's.
_ELSEWHERE = frozenset({"--git", "--registry", "--index", "--source", "-s", "--github",
                        "--branch", "--tag", "--rev", "--pypi-mirror", "-i", "--system",
                        "--package-directory"})  # fmt: skip
_VALUED = frozenset({"-F", "--features", "--rename", "-p", "--package", "--manifest-path",
                     "--target", "--version", "-v", "--group", "-g", "--require", "-f",
                     "--framework", "--optional", "--path", "--categories"})  # fmt: skip


def _names(args: tuple[str, ...]) -> tuple[list[str], list[str], bool]:
    """Named packages, ``--path`` values, and whether another source is named."""
    names: list[str] = []
    local: list[str] = []
    elsewhere = False
    for index, word in enumerate(args):
        option = word.split("=", 1)[0]
        if option in _ELSEWHERE:
            elsewhere = True
        if option == "--path":
            value = word.split("=", 1)[1] if "=" in word else args[index + 1 : index + 2]
            local.extend([value] if isinstance(value, str) else value)
        if not word.startswith("-") and not (index and args[index - 1] in _VALUED | _ELSEWHERE):
            names.append(word)
    return names, local, elsewhere


def _added(cmd: Cmd) -> tuple[str, frozenset[str], list[str]] | None:
    """(ecosystem, its popular names, the named words) of an adding command, or None."""
    args = cmd.args()
    if cmd.name == "cargo" and args[:1] == ("add",):
        return "crates", CRATES, list(args[1:])
    if cmd.name == "bundle" and args[:1] == ("add",):
        return "gems", GEMS, list(args[1:])
    if cmd.name == "pipenv" and args[:1] == ("install",):
        return "pypi", typosquat.TRUSTED_PYPI, list(args[1:])
    if cmd.name == "dotnet" and args[:1] == ("add",) and "package" in args:
        return "nuget", NUGET, list(args[args.index("package") + 1 :])
    if cmd.name == "go" and args[:1] == ("get",):
        return "go", frozenset(), list(args[1:])
    return None


def _bare(word: str, ecosystem: str) -> str:
    name = word.lower().split("@", 1)[0] if ecosystem != "go" else word.split("@", 1)[0]
    return name.replace("-", "_") if ecosystem == "crates" else name


def _owned(name: str, ecosystem: str, popular: frozenset[str]) -> bool:
    if ecosystem == "go":
        return name.startswith("./") or name in (".", "all") or name.startswith(_GO_OWNED)
    if ecosystem == "nuget" and name.startswith(_NUGET_OWNED):
        return True
    return name in popular


def _adding(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    found = _added(cmd)
    if found is None or any(cmd.dynamic):
        return
    ecosystem, popular, words = found
    names, local, elsewhere = _names(tuple(words))
    if cmd.name == "pipenv":
        names = [n.split("==")[0].split(">=")[0] for n in names]
    bare = [_bare(n, ecosystem) for n in names]
    for name in bare:
        near = typosquat.near_miss(name, popular) if ecosystem != "go" else None
        if near is not None:
            yield Finding(
                "typosquat",
                "deny",
                f"{cmd.name} adds {name!r}, one slip away from the popular package {near!r}: "
                "look-alike names are published to catch this; add the real package",
            )
            return
    strangers = [n for n in bare if not _owned(n, ecosystem, popular)]
    if local and all(inside(p, ctx) for p in local):
        strangers = []  # cargo add helper --path ./crates/helper: the workspace's own crate
    if elsewhere or strangers or any(not inside(p, ctx) for p in local):
        what = strangers[0] if strangers else "a package from another source"
        yield Finding(
            "package-install",
            "ask",
            f"{cmd.name} adds {what!r} to the project, and the project builds and runs its code "
            "next; it is not one of the ecosystem's widely used packages or its owner's own; a "
            "human must confirm the name",
        )


HANDLERS: dict[str, Handler] = {n: _adding for n in ("cargo", "bundle", "pipenv", "dotnet", "go")}
