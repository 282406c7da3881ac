package org.reconmuc.component.muc;


/**
 * {@code muc#roomconfig_historylength}: how many messages of discussion history a newcomer is
 * sent, up to the service's {@code history-size}.
 */
public final class HistoryLengthOption extends RoomOption.Number {
    public static final HistoryLengthOption HISTORY_LENGTH = new HistoryLengthOption();

    private HistoryLengthOption() {
        super("muc#roomconfig_historylength", "Messages of history kept and sent on join", 0);
    }

    @Override
    int limit(RoomConfig.Limits limits) {
        return limits.maxHistory();
    }
}
