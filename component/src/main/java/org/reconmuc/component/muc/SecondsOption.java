package org.reconmuc.component.muc;

import org.dom4j.Element;

/** A number of seconds, 0 (off) by default, up to a fixed bound; in the form with its XEP-0122 range, in disco#info always. */
public abstract class SecondsOption extends RoomOption.Number {
    /** XEP-0122 data form validation, which XEP-0500 §5.1 asks for on its field. */
    private static final String XDATA_VALIDATE = "http://jabber.org/protocol/xdata-validate";
    private final String roomInfoVar;
    private final int max;

    protected SecondsOption(String var, String label, String roomInfoVar, int max) {
        super(var, label, 0);
        this.roomInfoVar = roomInfoVar;
        this.max = max;
    }

    @Override
    int limit(RoomConfig.Limits limits) {
        return max;
    }

    @Override
    Integer defaultValue(RoomConfig.Limits limits) {
        return 0;
    }

    @Override
    void render(Element form, Integer value, RoomConfig.Limits limits) {
        Element f = field(form, var, "text-single", label, null);
        Element validate = f.addElement("validate", XDATA_VALIDATE).addAttribute("datatype", "xs:integer");
        validate.addElement("range").addAttribute("min", "0").addAttribute("max", Integer.toString(max));
        f.addElement("value").setText(Integer.toString(value));
    }

    @Override
    public void describe(RoomConfig config, Element query, Element roomInfo) {
        field(roomInfo, roomInfoVar, "text-single", null, Integer.toString(config.get(this)));
    }
}
