"""keras.layers.TextVectorization (texts to token ids or token counts).

TextVectorization = standardize -> split -> ngrams -> StringLookup -> pad or encode, as
Keras 3 does it.  Standardize and split run in one primitive (`text_tokens`, NumPy over
the UTF-8 text) that gives each text's token ids, padded with 0 (the mask index) to
output_sequence_length or to the longest text; the other output modes encode those ids
(the padding is dropped first).  A callable `standardize` runs as tensor ops first.
"""
import re

import numpy as np

import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.text_lookup import (
    StringLookup, _pad, data_values, encode_categorical, frequency_order,
)
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import Aval, bind, defprim
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor

# Keras's DEFAULT_STRIP_REGEX
_PUNCTUATION = re.compile(r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']')
STANDARDIZE = ("lower_and_strip_punctuation", "lower", "strip_punctuation")
SPLIT = ("whitespace", "character")


def standardize_text(text, how):
    if how is None:
        return text
    s = text.decode("utf-8", "replace")
    if how in ("lower", "lower_and_strip_punctuation"):
        s = s.lower()
    if how in ("strip_punctuation", "lower_and_strip_punctuation"):
        s = _PUNCTUATION.sub("", s)
    return s.encode("utf-8")


def split_text(text, how):
    if how is None:
        return [text] if text else []
    if how == "whitespace":
        return text.split()
    return [c.encode("utf-8") for c in text.decode("utf-8", "replace")]


def with_ngrams(tokens, ngrams):
    if ngrams is None:
        return tokens
    out = []
    for n in ngrams:
        out.extend(b" ".join(tokens[i:i + n]) for i in range(len(tokens) - n + 1))
    return out


def tokenize(text, standardize, split, ngrams):
    return with_ngrams(split_text(standardize_text(text, standardize), split), ngrams)


def _tokens_impl(xp, texts, standardize, split, ngrams, vocab, length, depth, pad=0):
    rows = [vocab.lookup(np.array(tokenize(t, standardize, split, ngrams), dtype=object))
            for t in np.asarray(texts, dtype=object).reshape(-1).tolist()]
    if depth is not None:                      # counts of each id per text
        out = np.zeros((len(rows), depth), np.int64)
        for i, r in enumerate(rows):
            np.add.at(out[i], r[r < depth], 1)
        return out
    width = length if length is not None else max((len(r) for r in rows), default=0)
    out = np.full((len(rows), width), pad, np.int64)
    for i, r in enumerate(rows):
        r = r[:width]
        out[i, :len(r)] = r
    return out


def _tokens_rule(texts, standardize, split, ngrams, vocab, length, depth, pad=0):
    batch = texts.shape[0] if texts.shape else None
    return Aval((batch, length if depth is None else depth), dtypes.int64)


TEXT_TOKENS = defprim("text_tokens", _tokens_impl, _tokens_rule)


def _ngram_widths(ngrams):
    if ngrams is None:
        return None
    if isinstance(ngrams, int):
        return tuple(range(1, ngrams + 1))
    return tuple(int(n) for n in ngrams)


class TextVectorization(Layer):
    """Texts (a batch of strings) to token ids (int) or per-text token vectors."""
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take lists and arrays

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation", split="whitespace", ngrams=None,
                 output_mode="int", output_sequence_length=None, pad_to_max_tokens=False, vocabulary=None,
                 idf_weights=None, sparse=False, ragged=False, encoding="utf-8", name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if not (standardize is None or callable(standardize) or standardize in STANDARDIZE):
            raise ValueError(with_location(f"TextVectorization: standardize must be None, a callable or one of "
                                           f"{STANDARDIZE}, got {standardize!r}"))
        if not (split is None or split in SPLIT):
            raise ValueError(with_location(f"TextVectorization: split must be None, 'whitespace' or 'character' "
                                           f"(a callable split is not supported), got {split!r}"))
        output_mode = "multi_hot" if output_mode == "binary" else output_mode  # Keras 3's legacy name
        if output_mode not in ("int", "one_hot", "multi_hot", "count", "tf_idf"):
            raise ValueError(with_location(f"TextVectorization: output_mode must be 'int', 'one_hot', 'multi_hot', "
                                           f"'count' or 'tf_idf', got {output_mode!r}"))
        if output_sequence_length is not None and output_mode != "int":
            raise ValueError(with_location("TextVectorization: output_sequence_length needs output_mode='int'"))
        if sparse:
            raise ValueError(with_location("TextVectorization: sparse outputs are not supported"))
        if ragged and output_mode != "int":
            raise ValueError(with_location(f"TextVectorization: ragged=True needs output_mode='int'. Received: "
                                           f"ragged=True and output_mode={output_mode}"))
        self.ragged = bool(ragged)
        self.max_tokens, self.standardize, self.split = max_tokens, standardize, split
        self.ngrams, self.output_mode = ngrams, output_mode
        self.output_sequence_length, self.pad_to_max_tokens = output_sequence_length, pad_to_max_tokens
        self._lookup = StringLookup(max_tokens=max_tokens, mask_token="" if output_mode == "int" else None,
                                    vocabulary=vocabulary, idf_weights=idf_weights, output_mode=output_mode,
                                    pad_to_max_tokens=pad_to_max_tokens, name=f"{self.name}_lookup")
        self.input_vocabulary = vocabulary

    def _standardize_how(self):
        return None if callable(self.standardize) else self.standardize

    def _texts(self, data):
        """The texts of adapt()'s data (strings), after a callable standardize."""
        for row in data_values(data, "adapt"):
            for text in row.tolist():
                yield text

    def adapt(self, data, batch_size=None, steps=None):
        counts, doc_freq, docs = {}, {}, 0
        widths = _ngram_widths(self.ngrams)
        if callable(self.standardize):
            data = self.standardize(convert_to_tensor(np.array(list(self._texts(data)), dtype=object)))
        for text in self._texts(data):
            tokens = tokenize(text, self._standardize_how(), self.split, widths)
            for t in tokens:
                counts[t] = counts.get(t, 0) + 1
            for t in set(tokens):
                doc_freq[t] = doc_freq.get(t, 0) + 1
            docs += 1
        counts.pop(b"", None)
        tokens = frequency_order(counts)
        lk = self._lookup
        if self.max_tokens is not None:
            tokens = tokens[:max(self.max_tokens - lk._token_start(), 0)]
        idf = None
        if self.output_mode == "tf_idf":
            idf = np.log1p(docs / (1.0 + np.array([doc_freq[t] for t in tokens], np.float64))).astype(np.float32)
        lk.set_vocabulary(tokens, idf, _given=False)

    def set_vocabulary(self, vocabulary, idf_weights=None):
        self._lookup.set_vocabulary(vocabulary, idf_weights)

    def get_vocabulary(self, include_special_tokens=True):
        return self._lookup.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        return self._lookup.vocabulary_size()

    def _convert_inputs(self, inputs):
        return inputs if isinstance(inputs, TensorBase) else convert_to_tensor(inputs)

    def call(self, inputs):
        if inputs.dtype is not dtypes.string:
            raise TypeError(with_location(f"TextVectorization: expected string inputs, got "
                                          f"{inputs.dtype.name}{list(inputs.shape)}"))
        x = inputs
        scalar = x.shape.rank == 0  # one string: Keras gives one row, without the batch dimension
        if x.shape.rank == 2 and x.shape[-1] == 1:
            x = tf.squeeze(x, -1)
        elif scalar:
            x = tf.reshape(x, [1])
        if callable(self.standardize):
            x = self.standardize(x)
        lk = self._lookup
        length = self.output_sequence_length if self.output_mode == "int" else None
        counting = self.output_mode not in ("int", "one_hot")
        attrs = {"standardize": self._standardize_how(), "split": self.split, "ngrams": _ngram_widths(self.ngrams),
                 "vocab": lk._vocab, "length": length, "depth": lk._depth() if counting else None}
        if self.output_mode == "one_hot":
            return self._one_hot_rows(bind(TEXT_TOKENS, (x,), {**attrs, "pad": -1}), scalar)
        out = bind(TEXT_TOKENS, (x,), attrs)
        if self.output_mode == "multi_hot":
            out = tf.cast(out > 0, "int64")
        elif self.output_mode == "tf_idf":
            out = tf.cast(out, "float32") * tf.constant(_pad(lk._idf, lk._depth()))
        if scalar:
            return out[0]
        # ragged: each row's ids without the padding (ids of tokens are >= 1, the mask id 0 pads)
        return tf.RaggedTensor.from_tensor(out, padding=0) if self.ragged else out

    def _one_hot_rows(self, ids, scalar):
        """Keras's one_hot texts: a ragged row of one-hot vectors per text (one string: a matrix).
        The ids were padded with -1, since 0 is the OOV id here (no mask token)."""
        depth = self._lookup._depth()
        if scalar:
            return tf.one_hot(ids[0], depth, dtype="int64")
        rows = tf.RaggedTensor.from_tensor(ids, padding=-1)
        return tf.RaggedTensor.from_row_splits(tf.one_hot(rows.values, depth, dtype="int64"), rows.row_splits)

    def get_config(self):
        vocab = self.input_vocabulary
        if vocab is None and self._lookup._vocab.tokens:
            vocab = self.get_vocabulary(include_special_tokens=False)
        idf = None if self._lookup._idf is None else self._lookup._idf[self._lookup._token_start():].tolist()
        return {**super().get_config(), "max_tokens": self.max_tokens,
                "standardize": self.standardize if not callable(self.standardize) else None,
                "split": self.split, "ngrams": self.ngrams, "output_mode": self.output_mode,
                "output_sequence_length": self.output_sequence_length, "pad_to_max_tokens": self.pad_to_max_tokens,
                "sparse": False, "ragged": self.ragged, "vocabulary": vocab, "idf_weights": idf, "encoding": "utf-8"}
