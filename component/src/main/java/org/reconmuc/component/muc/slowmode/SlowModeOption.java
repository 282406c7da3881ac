package org.reconmuc.component.muc.slowmode;

import org.reconmuc.component.muc.SecondsOption;

/** XEP-0500: seconds a non-moderator waits between two messages (0: off); {@code muc.ModerationOptions} applies it. */
public final class SlowModeOption extends SecondsOption {
    public static final SlowModeOption SLOW_MODE = new SlowModeOption();

    private SlowModeOption() {
        super(SlowMode.CONFIG_FIELD, "Slow mode: seconds a participant waits between two messages (0: off)",
                SlowMode.INFO_FIELD, SlowMode.MAX_SECONDS);
    }
}
