package org.reconmuc.joom.model;

/**
 * What Joom asks a ReConMUC room for (reconmuc.md §4): the active topic as the only active
 * filter, the time and volume bounds from the settings, and compressed batches (aggregation
 * {@code deflate}).
 *
 * @param activeTopic the active topic, or null before one is chosen (then nothing comes at once
 *     but the user's own messages and replies to them)
 * @param timeSeconds the time bound
 * @param volume the volume bound
 */
public record JoomRequirements(String activeTopic, int timeSeconds, int volume) {
    /** The spec's own defaults (§5.1). */
    public static final int DEFAULT_TIME = 60;
    public static final int DEFAULT_VOLUME = 20;

    public JoomRequirements {
        if (timeSeconds < 1 || volume < 1) {
            throw new IllegalArgumentException("time and volume are at least 1");
        }
    }

    public JoomRequirements withActiveTopic(String topic) {
        return new JoomRequirements(topic, timeSeconds, volume);
    }

    public JoomRequirements withBounds(int time, int vol) {
        return new JoomRequirements(activeTopic, time, vol);
    }

    /**
     * These requirements within a room's limits (§7): the volume at most {@code largestVolume}
     * (null: no limit stated), the time at most {@code largestTime}.
     */
    public JoomRequirements within(Integer largestVolume, int largestTime) {
        int v = largestVolume == null ? volume : Math.min(volume, Math.max(1, largestVolume));
        return new JoomRequirements(activeTopic, Math.min(timeSeconds, Math.max(1, largestTime)), v);
    }
}
