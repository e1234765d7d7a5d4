"""tf.queue: FIFOQueue, PaddingFIFOQueue, PriorityQueue, RandomShuffleQueue (eager)."""


def program_fifo_queue(tf):
    q = tf.queue.FIFOQueue(5, [tf.int32, tf.float32], shapes=[[], [2]])
    q.enqueue((1, [1.0, 2.0]))
    q.enqueue_many(([2, 3], [[3.0, 4.0], [5.0, 6.0]]))
    first = q.dequeue()
    size = q.size()
    many = q.dequeue_many(2)
    return {"first": first, "size": size, "many": many, "after": q.size(), "closed": q.is_closed(),
            "dtypes": q.dtypes, "shapes": q.shapes, "names": q.names}


def program_fifo_queue_closed(tf):
    q = tf.queue.FIFOQueue(3, tf.int64)
    q.enqueue(tf.constant(4, tf.int64))
    q.close()
    got = q.dequeue()
    return {"got": got, "closed": q.is_closed(), "v": q.dequeue()}


def program_fifo_queue_enqueue_closed(tf):
    q = tf.queue.FIFOQueue(3, tf.int64)
    q.close()
    q.enqueue(tf.constant(4, tf.int64))
    return {"v": q.size()}


def program_fifo_queue_up_to(tf):
    q = tf.queue.FIFOQueue(5, tf.int32, shapes=[[]])
    q.enqueue_many([[1, 2, 3]])
    q.close()
    return {"v": q.dequeue_up_to(5)}


def program_fifo_queue_bad_shape(tf):
    q = tf.queue.FIFOQueue(3, tf.float32, shapes=[[2]])
    q.enqueue([1.0, 2.0, 3.0])
    return {"v": q.size()}


def program_fifo_queue_bad_dtype(tf):
    q = tf.queue.FIFOQueue(3, tf.float32)
    q.enqueue(tf.constant(1, tf.int32))
    return {"v": q.size()}


def program_fifo_queue_names(tf):
    q = tf.queue.FIFOQueue(4, [tf.int32, tf.string], names=["a", "b"], shapes=[[], []])
    q.enqueue({"a": 1, "b": "x"})
    q.enqueue_many({"a": [2, 3], "b": ["y", "z"]})
    return {"one": q.dequeue(), "two": q.dequeue_many(2)}


def program_padding_fifo_queue(tf):
    q = tf.queue.PaddingFIFOQueue(4, [tf.int32], shapes=[[None]])
    q.enqueue([[1]])
    q.enqueue([[2, 3, 4]])
    q.enqueue([[5, 6]])
    return {"v": q.dequeue_many(3)}


def program_priority_queue(tf):
    q = tf.queue.PriorityQueue(5, [tf.string], shapes=[[]])
    q.enqueue_many(([3, 1, 2], ["c", "a", "b"]))
    q.enqueue((0, "z"))
    return {"one": q.dequeue(), "rest": q.dequeue_many(3)}


def program_random_shuffle_queue(tf):
    q = tf.queue.RandomShuffleQueue(10, 0, tf.int32, shapes=[[]], seed=3)
    q.enqueue_many([[5, 6, 7, 8]])
    got = q.dequeue_many(4)
    return {"sorted": tf.sort(got), "size": q.size()}


def program_random_shuffle_queue_min_after(tf):
    q = tf.queue.RandomShuffleQueue(10, 2, tf.int32, shapes=[[]])
    q.enqueue_many([[5, 6, 7]])
    q.close()
    return {"v": tf.sort(q.dequeue_many(3))}
