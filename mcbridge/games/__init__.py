"""See DESIGN.md §2 for what this layer owns."""
