package org.reconmuc.servers;

import org.junit.jupiter.api.BeforeAll;

/** ejabberd's mod_multicast, as deploy/ejabberd/ejabberd.yml.template configures it for the component. */
class EjabberdMulticastIT extends MulticastIT {
    @BeforeAll
    static void ejabberd() throws Exception {
        start("ejabberd");
    }
}
