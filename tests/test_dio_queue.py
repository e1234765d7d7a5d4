"""tf.queue waits: TensorFlow blocks forever where tapeflow waits BLOCKING_TIMEOUT_S and raises."""
import threading
import time

import pytest

import tapeflow as tf
from tapeflow import queue as queue_module


def test_dequeue_from_an_empty_open_queue_times_out(monkeypatch):
    monkeypatch.setattr(queue_module, "BLOCKING_TIMEOUT_S", 0.05)
    q = tf.queue.FIFOQueue(2, tf.int32, shapes=[[]])
    with pytest.raises(tf.errors.DeadlineExceededError, match="BLOCKING_TIMEOUT_S"):
        q.dequeue()


def test_enqueue_into_a_full_queue_times_out(monkeypatch):
    monkeypatch.setattr(queue_module, "BLOCKING_TIMEOUT_S", 0.05)
    q = tf.queue.FIFOQueue(1, tf.int32, shapes=[[]])
    q.enqueue(1)
    with pytest.raises(tf.errors.DeadlineExceededError):
        q.enqueue(2)


def test_a_dequeue_waits_for_another_thread():
    q = tf.queue.FIFOQueue(2, tf.int32, shapes=[[]])

    def produce():
        time.sleep(0.05)
        q.enqueue_many([[7, 8]])

    threading.Thread(target=produce).start()
    assert q.dequeue_many(2).numpy().tolist() == [7, 8]


def test_close_wakes_a_waiting_dequeue():
    q = tf.queue.FIFOQueue(2, tf.int32, shapes=[[]])
    threading.Timer(0.05, q.close).start()
    with pytest.raises(tf.errors.OutOfRangeError, match="closed"):
        q.dequeue()
