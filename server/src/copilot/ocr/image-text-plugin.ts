import fp from 'fastify-plugin';
import { createImageTextReader, type ImageTextReader } from './image-text-reader.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reads the text of screenshots (OCR) for questions; readers take turns at the one engine. */
    imageText: ImageTextReader;
  }
}

/** The OCR engine, started on its first image, timed by the metrics when they are on, stopped with the server. */
export const imageTextPlugin = fp(
  async (app) => {
    const reader = createImageTextReader();
    const imageText = app.metrics ? app.metrics.timeImageReading(reader) : reader;
    app.addHook('onClose', () => imageText.close());
    app.decorate('imageText', imageText);
  },
  { name: 'image-text', fastify: '5.x', decorators: { fastify: ['metrics'] } },
);
