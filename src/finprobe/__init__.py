"""FinProbe: is an LLM reliable on financial documents?"""

__version__ = "0.1.0"
