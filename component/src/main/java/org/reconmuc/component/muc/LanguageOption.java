package org.reconmuc.component.muc;

import java.util.IllformedLocaleException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dom4j.Element;

/**
 * {@code muc#roomconfig_lang} (XEP-0045 §15.5.3): the language the room talks in, as a BCP 47
 * tag ("" when unsaid), shown in disco#info as {@code muc#roominfo_lang} so that a directory or
 * a client can offer rooms in the user's language.
 */
final class LanguageOption extends RoomOption.Text {
    static final LanguageOption LANGUAGE = new LanguageOption();

    private LanguageOption() {
        super("muc#roomconfig_lang", "Language of the discussion (a tag such as en or pt-BR)", "muc#roominfo_lang");
    }

    @Override
    String read(Map<String, List<String>> submitted, String current, RoomConfig.Limits limits) {
        String tag = super.read(submitted, current, limits);
        if (tag.isEmpty()) {
            return tag;
        }
        try {
            new Locale.Builder().setLanguageTag(tag);
        } catch (IllformedLocaleException e) {
            throw new IllegalArgumentException(var + " must be a language tag such as en or pt-BR, not '" + tag + "'");
        }
        return tag;
    }

    @Override
    public void describe(RoomConfig config, Element query, Element roomInfo) {
        if (!config.get(this).isEmpty()) {
            super.describe(config, query, roomInfo);
        }
    }
}
