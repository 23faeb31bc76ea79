"""The evaluation harness: measure context policies and context rot on real model calls.

It replays one recorded transcript under several history policies (messages, tool calls and
results byte-identical across policies, so the only variable is what each policy keeps),
counts every request exactly with the model's own tokenizer and template (billed, cached and
final-context tokens, compression cost), then asks planted-fact probes in several phrasings and
scores each answer as correct, another record's value, a refusal or other, with Wilson
intervals. It also runs the position and length tests (lost in the middle) on key-value sets
and generated ticket lists, and splits a transcript's requests into token buckets two ways
(exact per-item counts and four counts with three subtractions). File loaders are in
:mod:`~workset.eval.formats`; reports (table, JSON, PNG) in :mod:`~workset.eval.report`.
"""
