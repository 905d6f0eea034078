"""Tenant and Scope: the ground every other app builds on."""
