package org.reconmuc.servers;

import static org.assertj.core.api.Assertions.assertThat;

import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Stanza;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** deploy/prosody/plugins/mod_component_multicast.lua: the module we ship for Prosody, which has no multicast in core. */
class ProsodyMulticastIT extends MulticastIT {
    @BeforeAll
    static void prosody() throws Exception {
        start("prosody");
    }

    @Test
    void onlyBccAddressesAreTaken() throws Exception {
        try (StanzaCollector toBob = bob.createStanzaCollector(StanzaTypeFilter.MESSAGE);
             ComponentStream reconmuc = component(server.componentDomain())) {
            reconmuc.send(groupchat("to", SERVICE, "not bcc", "<addresses xmlns='" + ADDRESS + "'><address type='to' jid='"
                    + bob.getUser() + "'/></addresses>"));
            assertThat(reconmuc.readUntil(s -> s.contains("</message>"))).contains("<bad-request");
            assertThat((Stanza) toBob.nextResult(1000)).as("nothing reaches Bob").isNull();
        }
    }
}
