package org.reconmuc.joom.ui;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.FlowLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JCheckBox;
import javax.swing.JComponent;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JPasswordField;
import javax.swing.JSpinner;
import javax.swing.JTextField;
import javax.swing.SpinnerNumberModel;
import org.reconmuc.joom.model.Settings;

/**
 * Server, account (or anonymous login), room and nick; prefilled with the last ones. Connecting
 * happens in the background; a failure is said in plain words in the dialog, which stays open.
 */
final class ConnectDialog extends JDialog {

    ConnectDialog(JoomWindow owner, JoomController controller) {
        super(owner, "Connect to a room", true);
        Settings s = controller.settings();
        JTextField server = new JTextField(s.server(), 18);
        JSpinner port = new JSpinner(new SpinnerNumberModel(s.port(), 1, 65535, 1));
        port.setEditor(new JSpinner.NumberEditor(port, "#"));
        JTextField jid = new JTextField(s.jid(), 18);
        JPasswordField password = new JPasswordField(18);
        JCheckBox anonymous = new JCheckBox("Anonymous login (the server picks a name)", s.anonymous());
        JTextField room = new JTextField(s.room(), 18);
        JTextField nick = new JTextField(s.nick(), 18);
        anonymous.addActionListener(e -> password.setEnabled(!anonymous.isSelected()));
        password.setEnabled(!s.anonymous());
        jid.putClientProperty("JTextField.placeholderText", "alice@example.org (anonymous: anon.example.org)");
        room.putClientProperty("JTextField.placeholderText", "lobby@reconmuc.example.org");

        JPanel form = new JPanel(new GridBagLayout());
        form.setBorder(BorderFactory.createEmptyBorder(12, 12, 4, 12));
        int row = 0;
        row = add(form, row, "Server", server);
        row = add(form, row, "Port", port);
        row = add(form, row, "Account (JID)", jid);
        row = add(form, row, "Password", password);
        row = add(form, row, "", anonymous);
        row = add(form, row, "Room", room);
        add(form, row, "Nick", nick);

        JLabel error = new JLabel(" ");
        error.setForeground(new Color(0xb00020));
        error.setBorder(BorderFactory.createEmptyBorder(0, 12, 0, 12));
        JButton connect = new JButton("Connect");
        JButton cancel = new JButton("Cancel");
        cancel.addActionListener(e -> dispose());
        connect.addActionListener(e -> {
            String n = nick.getText().strip();
            String j = jid.getText().strip();
            Settings next = s.withAccount(server.getText().strip(), (Integer) port.getValue(), j, anonymous.isSelected())
                    .withRoom(room.getText().strip(), n.isEmpty() ? defaultNick(j) : n);
            connect.setEnabled(false);
            error.setText("Connecting…");
            controller.connect(next, new String(password.getPassword())).whenComplete((mode, failure) -> {
                connect.setEnabled(true);
                if (failure == null) {
                    dispose();
                } else {
                    error.setText(failure.getMessage());
                    pack();
                }
            });
        });
        layOut(this, form, error, cancel, connect);
    }

    /** A dialog's layout: the form, a line of text under it, Cancel and the default button at the bottom right. */
    static void layOut(JDialog dialog, JComponent form, JComponent text, JButton cancel, JButton ok) {
        JPanel buttons = new JPanel(new FlowLayout(FlowLayout.RIGHT));
        buttons.add(cancel);
        buttons.add(ok);
        JPanel south = new JPanel(new BorderLayout());
        south.add(text, BorderLayout.NORTH);
        south.add(buttons, BorderLayout.SOUTH);
        dialog.getContentPane().add(form, BorderLayout.CENTER);
        dialog.getContentPane().add(south, BorderLayout.SOUTH);
        dialog.getRootPane().setDefaultButton(ok);
        dialog.pack();
        dialog.setLocationRelativeTo(dialog.getOwner());
    }

    /** The nick when none is given: the account's local part, else "guest". */
    static String defaultNick(String jid) {
        int at = jid.indexOf('@');
        return at > 0 ? jid.substring(0, at) : "guest";
    }

    static int add(JPanel form, int row, String label, JComponent field) {
        GridBagConstraints c = new GridBagConstraints();
        c.gridy = row;
        c.insets = new Insets(3, 3, 3, 3);
        c.anchor = GridBagConstraints.LINE_END;
        form.add(new JLabel(label), c);
        c.gridx = 1;
        c.anchor = GridBagConstraints.LINE_START;
        c.fill = GridBagConstraints.HORIZONTAL;
        c.weightx = 1;
        form.add(field, c);
        return row + 1;
    }
}
