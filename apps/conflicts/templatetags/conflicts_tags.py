"""Template helpers of the review screen. Output is plain text: templates escape it."""

import json

from django import template

register = template.Library()


@register.filter
def pretty_json(value) -> str:
    """Indented JSON text of a memory's content (escaped by the template, never marked safe)."""
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)
