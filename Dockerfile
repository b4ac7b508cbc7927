# The image the API replicas and the projections process run from (see docker-compose.yml).
FROM node:24-slim
WORKDIR /app
# npm 11 honours the allowScripts list in package.json, as on the development machines.
RUN npm install -g npm@11
COPY . .
# Development dependencies stay: `npm start` and `npm run projections` run TypeScript through tsx.
RUN npm ci
EXPOSE 3000
CMD ["npm", "start"]
