"""Reusable preview widgets: shaded-span text views and QPainter charts (no QtCharts needed)."""
