package org.reconmuc.component.muc.delay;

import org.reconmuc.component.muc.SecondsOption;

/**
 * mod_muc_moderation_delay: seconds a non-moderator's message waits for everyone but the moderators
 * (0: off); {@code muc.ModerationOptions} applies it.
 */
public final class ModerationDelayOption extends SecondsOption {
    public static final ModerationDelayOption MODERATION_DELAY = new ModerationDelayOption();

    private ModerationDelayOption() {
        super(HeldMessages.CONFIG_FIELD,
                "Moderation delay: seconds a participant's message waits for everyone but the moderators (0: off)",
                HeldMessages.INFO_FIELD, HeldMessages.MAX_SECONDS);
    }
}
