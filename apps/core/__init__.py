"""Shared plumbing every app builds on: pager, service errors, read-only admin, content checks."""
