"""MkDocs hook of the documentation site (mkdocs.yml): Sphinx roles in docstrings read as code.

The docstrings name code the Sphinx way (``:class:`Game```, ``:meth:`~.session.TableSession.apply```),
which Markdown shows with the role written out. mkdocstrings renders the docstrings as Markdown, so
here the role goes and the name stays as code, shortened as Sphinx shortens it (``~``: the last part;
a leading ``.``: relative to the module, dropped).
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|data|attr|exc|obj|const|type):<code>([^<]*)</code>")


def _name(match: re.Match[str]) -> str:
    target = match.group(1)
    if target.startswith("~"):
        target = target[1:].rsplit(".", 1)[-1]
    return f"<code>{target.lstrip('.')}</code>"


def on_page_content(html: str, **kwargs: Any) -> str:
    return ROLE.sub(_name, html)
