"""A CrewAI project exported from an Envelope team definition (see envelope.json)."""

# Inventory Restock Watch (inventory-restock-watch)
__version__ = "1.1.0"
