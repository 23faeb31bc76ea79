"""Package names one slip away from a popular package: the typosquats registries keep pulling.

``npm install crossenv`` (``cross-env`` without its dash), ``pip install reqeusts`` (two letters
swapped) or ``npm i mongose`` (a letter left out) installs whoever registered the near miss,
and installing runs its code at once. A name is a near miss when it is not itself on the list
and either equals a popular name once separators, a ``.js``/``-js``/``py-``/``python-`` affix
or a version digit are dropped, or is one edit (a letter added, dropped, changed or two
swapped) away from a popular name of six letters or more.
"""

from __future__ import annotations

import re

NPM = frozenset(
    {
        "react", "react-dom", "vue", "angular", "svelte", "next", "nuxt", "express", "koa",
        "fastify", "hapi", "lodash", "underscore", "ramda", "axios", "request", "node-fetch",
        "got", "superagent", "chalk", "colors", "color", "commander", "yargs", "minimist",
        "inquirer", "debug", "dotenv", "cross-env", "nodemon", "pm2", "webpack", "webpack-cli",
        "rollup", "esbuild", "vite", "parcel", "babel-cli", "@babel/core", "babel-core",
        "typescript", "ts-node", "eslint", "prettier", "jest", "mocha", "chai", "sinon",
        "jasmine", "karma", "cypress", "playwright", "puppeteer", "jquery", "moment", "dayjs",
        "date-fns", "uuid", "nanoid", "classnames", "prop-types", "redux", "react-redux",
        "mobx", "rxjs", "socket.io", "ws", "mongoose", "mongodb", "mysql", "mysql2", "pg",
        "sequelize", "typeorm", "prisma", "knex", "redis", "ioredis", "sqlite3", "bcrypt",
        "bcryptjs", "jsonwebtoken", "passport", "cors", "helmet", "body-parser", "morgan",
        "winston", "pino", "glob", "rimraf", "mkdirp", "fs-extra", "chokidar", "semver",
        "node-sass", "sass", "less", "postcss", "autoprefixer", "tailwindcss", "bootstrap",
        "d3", "three", "chart.js", "electron", "http-proxy", "nodemailer", "sharp", "jimp",
        "cheerio", "jsdom", "marked", "markdown-it", "handlebars", "ejs", "pug", "graphql",
        "apollo-server", "zod", "joi", "yup", "ajv", "immer", "styled-components", "husky",
        "lint-staged", "concurrently", "npm-run-all", "serve", "http-server", "opencv",
        "ffmpeg", "fluent-ffmpeg", "openssl", "shadowsocks", "coffee-script", "grunt",
        "grunt-cli", "gulp", "gulp-cli", "bower", "yarn", "pnpm", "npm", "lerna", "nx",
        "turbo", "storybook", "tslib", "core-js", "regenerator-runtime", "ethers", "web3",
    }
)  # fmt: skip
PYPI = frozenset(
    {
        "requests", "urllib3", "numpy", "pandas", "scipy", "scapy", "matplotlib", "seaborn",
        "scikit-learn", "sklearn", "tensorflow", "torch", "torchvision", "keras", "jax",
        "flask", "django", "fastapi", "starlette", "uvicorn", "gunicorn", "celery", "redis",
        "sqlalchemy", "psycopg2", "psycopg2-binary", "pymysql", "pymongo", "boto3", "botocore",
        "awscli", "pyyaml", "toml", "tomli", "simplejson", "ujson", "orjson", "pydantic",
        "attrs", "click", "typer", "rich", "colorama", "termcolor", "tqdm", "python-dateutil",
        "pytz", "arrow", "pendulum", "six", "setuptools", "wheel", "pip", "virtualenv",
        "pipenv", "poetry", "black", "flake8", "pylint", "mypy", "ruff", "isort", "pytest",
        "pytest-cov", "coverage", "tox", "nox", "hypothesis", "mock", "selenium",
        "beautifulsoup4", "bs4", "lxml", "html5lib", "scrapy", "httpx", "aiohttp", "websockets",
        "paramiko", "cryptography", "pycryptodome", "pyopenssl", "bcrypt", "jwt", "pyjwt",
        "jinja2", "markupsafe", "werkzeug", "itsdangerous", "pillow", "opencv-python",
        "imageio", "openpyxl", "xlrd", "docutils", "sphinx", "mkdocs", "jupyter", "notebook",
        "ipython", "ipykernel", "nltk", "spacy", "transformers", "tokenizers", "datasets",
        "openai", "anthropic", "langchain", "networkx", "sympy", "statsmodels", "xgboost",
        "lightgbm", "plotly", "dash", "streamlit", "gradio", "jellyfish", "python-nmap",
        "nmap", "dnspython", "psutil", "docker", "kubernetes", "ansible", "fabric", "invoke",
        "pexpect", "sh", "tkinter", "pygame", "pyqt5", "pyside6", "kivy", "wxpython",
        "python-dotenv", "environs", "marshmallow", "protobuf", "grpcio", "thrift", "zmq",
        "pyzmq", "msgpack", "cython", "numba", "dask", "pyarrow", "polars", "duckdb",
    }
)  # fmt: skip
# Installed by name into the project without asking (rules.system): the popular names
# above, which the near-miss rule guards, and common test and build tools (a near miss of
# those asks, since it is not on this list).
TRUSTED_NPM = NPM | {"vitest", "@types/node", "tsx", "@playwright/test", "supertest",
                     "@testing-library/react", "@testing-library/jest-dom", "happy-dom", "msw",
                     "c8", "nyc", "@vitejs/plugin-react", "@types/react", "ts-jest"}  # fmt: skip
TRUSTED_PYPI = PYPI | {"pytest-asyncio", "pytest-mock", "pytest-xdist", "pre-commit", "alembic",
                       "build", "twine", "hatch", "hatchling", "types-requests", "faker",
                       "freezegun", "responses", "respx", "anyio", "trio", "structlog",
                       "loguru", "setuptools", "wheel", "pip"}  # fmt: skip
# npm scopes owned by the projects they are named for: no one else can publish under them, so
# a package of the scope is that project's (``@types/node``, ``@babel/preset-env``).
TRUSTED_NPM_SCOPES = ("@types/", "@babel/", "@typescript-eslint/", "@testing-library/",
                      "@vitejs/", "@angular/", "@vue/", "@nestjs/", "@aws-sdk/", "@octokit/",
                      "@storybook/", "@tanstack/", "@mui/", "@reduxjs/", "@prisma/",
                      "@playwright/", "@swc/", "@eslint/", "@jest/", "@sveltejs/", "@nuxt/",
                      "@emotion/", "@remix-run/", "@vitest/", "@rollup/", "@google-cloud/",
                      "@azure/", "@opentelemetry/", "@sentry/", "@trpc/", "@radix-ui/",
                      "@apollo/", "@graphql-tools/", "@fastify/", "@nx/", "@biomejs/",
                      "@tailwindcss/", "@astrojs/", "@commitlint/", "@changesets/")  # fmt: skip
_AFFIX = re.compile(r"^(node-?|py-?|python\d?-?)|([-.]?js|[-.]?py|\d)$")


def near_miss(name: str, popular: frozenset[str]) -> str | None:
    """The popular package ``name`` imitates, or None (it is one of them, or no near miss)."""
    name = name.lower().split("@")[0] if not name.startswith("@") else name.lower()
    name = re.split(r"[=<>!~\[;]", name, maxsplit=1)[0].strip()
    if not name or name in popular or "/" in name.lstrip("@"):
        return None
    flat = _flat(name)
    bare = _flat(_AFFIX.sub("", name))
    for known in sorted(popular):
        target = _flat(known)
        if target in (flat, bare) and len(target) >= 4:
            return known
        if (
            len(known) >= 6
            and _one_edit(name, known)
            and name.rstrip("0123456789") != (known.rstrip("0123456789"))
        ):
            return known  # (a trailing version digit is a release line: mysql2, bs4's 3)
    return None


def _flat(name: str) -> str:
    return re.sub(r"[-_.]", "", name)


def _one_edit(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by one letter added, dropped or changed, or two swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and (a[diff[1]] == b[diff[0]])
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


# Releases published by someone who took over the maintainer's account or build, and later
# pulled: installing one of these exact versions runs the attacker's code (an install script,
# or code that steals wallets, tokens or CI secrets). Whole packages that were only ever
# malicious are listed with the version "*".
COMPROMISED: dict[str, dict[str, frozenset[str]]] = {
    "npm": {
        "event-stream": frozenset({"3.3.6"}),
        "flatmap-stream": frozenset({"*"}),
        "ua-parser-js": frozenset({"0.7.29", "0.8.0", "1.0.0"}),
        "coa": frozenset({"2.0.3", "2.0.4", "2.1.1", "2.1.3", "3.0.1", "3.1.3"}),
        "rc": frozenset({"1.2.9", "1.3.9", "2.3.9"}),
        "colors": frozenset({"1.4.1", "1.4.2", "1.4.44-liberty-2"}),
        "faker": frozenset({"6.6.6"}),
        "node-ipc": frozenset({"10.1.1", "10.1.2", "10.1.3"}),
        "eslint-scope": frozenset({"3.7.2"}),
        "@solana/web3.js": frozenset({"1.95.6", "1.95.7"}),
        "chalk": frozenset({"5.6.1"}),
        "debug": frozenset({"4.4.2"}),
        "nx": frozenset(
            {"20.9.0", "20.10.0", "20.11.0", "20.12.0", "21.5.0", "21.6.0", "21.7.0", "21.8.0"}
        ),
    },
    "pypi": {
        "ctx": frozenset({"*"}),
        "ultralytics": frozenset({"8.3.41", "8.3.42", "8.3.45", "8.3.46"}),
        "torchtriton": frozenset({"*"}),
    },
}


def compromised(word: str, ecosystem: str) -> str | None:
    """``event-stream@3.3.6``, ``ctx==0.2.6``: a release known to carry an attacker's code."""
    word = word.lower().strip()
    if ecosystem == "npm":
        at = word.rfind("@")
        name, version = (word[:at], word[at + 1 :]) if at > 0 else (word, "")
    else:
        name, _, version = word.partition("==")
        name = re.split(r"[<>!~\[;=]", name, maxsplit=1)[0].strip()
        version = version.lstrip("=").strip()
    versions = COMPROMISED[ecosystem].get(name)
    if versions is None or not ("*" in versions or version.lstrip("v") in versions):
        return None
    return f"{name}@{version}" if version else name
