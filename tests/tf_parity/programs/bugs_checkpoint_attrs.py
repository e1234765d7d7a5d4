"""tf.train.Checkpoint attributes (issue #11): the keyword objects read back as
attributes, and an object assigned as an attribute later is tracked as TF tracks it."""
import os
import tempfile


def _prefix():
    return os.path.join(tempfile.mkdtemp(prefix="parity_ckpt_attr_"), "ckpt")


def program_keyword_objects_are_attributes(tf):
    v = tf.Variable(2.0)
    layer = tf.keras.layers.Dense(1)
    ckpt = tf.train.Checkpoint(v=v, model=layer)
    return {"same_v": ckpt.v is v, "same_model": ckpt.model is layer, "v": ckpt.v}


def program_assigned_variable_is_saved(tf):
    ckpt = tf.train.Checkpoint(a=tf.Variable(1.0))
    x = tf.Variable([1.0, 2.0])
    ckpt.x = x
    path = ckpt.save(_prefix())
    x.assign([0.0, 0.0])
    ckpt.restore(path)
    other = tf.Variable([9.0, 9.0])
    tf.train.Checkpoint(x=other).restore(path).expect_partial()
    return {"x": x, "other": other, "same": ckpt.x is x}


def program_assigned_container_is_saved(tf):
    ckpt = tf.train.Checkpoint()
    ckpt.misc = {"w": tf.Variable(3.0)}
    ckpt.layers = [tf.Variable(4)]
    path = ckpt.save(_prefix())
    ckpt.misc["w"].assign(0.0)
    ckpt.layers[0].assign(0)
    ckpt.restore(path)
    return {"w": ckpt.misc["w"], "l": ckpt.layers[0]}


def program_reassigned_attribute_saves_the_new_object(tf):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    ckpt.v = tf.Variable(7.0)
    path = ckpt.save(_prefix())
    fresh = tf.Variable(0.0)
    tf.train.Checkpoint(v=fresh).restore(path).expect_partial()
    return {"fresh": fresh}


def program_plain_python_attribute(tf):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    ckpt.note = 5
    path = ckpt.save(_prefix())
    return {"note": ckpt.note, "saved": os.path.basename(path)}


def program_missing_attribute_raises(tf):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    return {"x": ckpt.nothing_here}


def program_restore_then_assign_restores_later(tf):
    path = tf.train.Checkpoint(x=tf.Variable(5.0)).save(_prefix())
    ckpt = tf.train.Checkpoint()
    ckpt.restore(path)
    x = tf.Variable(0.0)
    ckpt.x = x
    return {"x": x}


def program_save_counter_attribute(tf):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    ckpt.save(_prefix())
    ckpt.save(_prefix())
    return {"n": ckpt.save_counter}
