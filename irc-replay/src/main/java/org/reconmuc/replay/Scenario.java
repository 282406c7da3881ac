package org.reconmuc.replay;

import java.util.Locale;

/**
 * One scenario of a run: {@code standard} (the XMPP server's own MUC), {@code off} (ReConMUC,
 * every bot a standard occupant) or {@code relaxed} (ReConMUC, every bot states requirements).
 * On the command line a relaxed scenario may carry its own parameters:
 * {@code relaxed:volume=30:time=60:aggregate=deflate}; missing ones come from the global flags.
 */
public record Scenario(Kind kind, int volume, int timeSeconds, String aggregation) {

    public enum Kind {
        STANDARD, OFF, RELAXED
    }

    public static Scenario parse(String spec, int defaultVolume, int defaultTime, String defaultAggregation) {
        String[] parts = spec.split(":");
        Kind kind = switch (parts[0].toLowerCase(Locale.ROOT)) {
            case "standard" -> Kind.STANDARD;
            case "off" -> Kind.OFF;
            case "relaxed" -> Kind.RELAXED;
            default -> throw new IllegalArgumentException("unknown scenario '" + parts[0] + "' (standard, off, relaxed)");
        };
        int volume = defaultVolume;
        int time = defaultTime;
        String aggregation = defaultAggregation;
        for (int i = 1; i < parts.length; i++) {
            String[] kv = parts[i].split("=", 2);
            if (kv.length != 2 || kind != Kind.RELAXED) {
                throw new IllegalArgumentException("bad scenario parameter '" + parts[i] + "' in '" + spec
                        + "' (only relaxed takes volume=, time=, aggregate=)");
            }
            switch (kv[0]) {
                case "volume", "v" -> volume = Integer.parseInt(kv[1]);
                case "time", "t" -> time = Integer.parseInt(kv[1]);
                case "aggregate", "aggregation", "a" -> aggregation = kv[1];
                default -> throw new IllegalArgumentException("unknown scenario parameter '" + kv[0] + "' in '" + spec + "'");
            }
        }
        if (!aggregation.equals("none") && !aggregation.equals("plain") && !aggregation.equals("deflate")) {
            throw new IllegalArgumentException("aggregate must be none, plain or deflate, not '" + aggregation + "'");
        }
        if (volume < 1 || time < 1) {
            throw new IllegalArgumentException("volume and time must be >= 1");
        }
        return new Scenario(kind, volume, time, aggregation);
    }

    public boolean usesComponent() {
        return kind != Kind.STANDARD;
    }

    public boolean relaxed() {
        return kind == Kind.RELAXED;
    }

    /** A name for folders and tables: {@code standard}, {@code off}, {@code relaxed-v10-t60-plain}. */
    public String label() {
        return switch (kind) {
            case STANDARD -> "standard";
            case OFF -> "off";
            case RELAXED -> "relaxed-v" + volume + "-t" + timeSeconds + "-" + aggregation;
        };
    }
}
