"""The render wing: model -> content (the generator packages and modules here) -> delivery targets (``targets/``)
-> the writer (``writer.py``). Pure up to the writer; never imports the operations wing (``gpudash.ops``)."""
