import { useId } from "react";

// The contact form: Your Name, Your Email, Message, Send Message.
// TODO(enquiries issue): validation messages, sending, thank-you, errors.
export function ContactForm() {
  const id = useId();
  return (
    <form className="contact-form" method="post" action="/api/enquiries" onSubmit={(e) => e.preventDefault()}>
      <p>
        <label htmlFor={`${id}-name`}>Your Name</label>
        <input id={`${id}-name`} name="name" required autoComplete="name" />
      </p>
      <p>
        <label htmlFor={`${id}-email`}>Your Email</label>
        <input id={`${id}-email`} name="email" type="email" required autoComplete="email" />
      </p>
      <p>
        <label htmlFor={`${id}-message`}>Message</label>
        <textarea id={`${id}-message`} name="message" required rows={5} />
      </p>
      <button type="submit" className="button">
        Send Message
      </button>
    </form>
  );
}
