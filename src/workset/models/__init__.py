"""Model backends behind one small protocol: the embedded llama.cpp model (default), any
OpenAI-compatible endpoint, and the parsing of tool calls that small models write as text."""
