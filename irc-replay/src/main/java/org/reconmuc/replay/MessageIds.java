package org.reconmuc.replay;

/**
 * The {@code id} of every replayed message carries its seq and its send time (microseconds since
 * the start of the measurement, on the harness's clock), in base 36: {@code r<seq>.<micros>} —
 * about as long as a client's random id, so it costs no extra bytes, and both MUC services keep it
 * on the broadcast and inside batches.
 */
public final class MessageIds {
    private MessageIds() {
    }

    public static String make(int seq, long micros) {
        return "r" + Integer.toString(seq, 36) + "." + Long.toString(micros, 36);
    }

    /** {seq, micros}, or null when the id is not one of ours. */
    public static long[] parse(String id) {
        if (id == null || id.length() < 4 || id.charAt(0) != 'r') {
            return null;
        }
        int dot = id.indexOf('.');
        if (dot < 2) {
            return null;
        }
        try {
            return new long[] {Long.parseLong(id, 1, dot, 36), Long.parseLong(id, dot + 1, id.length(), 36)};
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
