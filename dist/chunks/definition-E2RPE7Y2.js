import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-YB6QROLY.js";import"./chunk-WZADPM4R.js";import"./chunk-ZXP5UGOP.js";import"./chunk-IGNFH23K.js";import"./chunk-SKUA5T56.js";import"./chunk-AGOBB62V.js";import"./chunk-XTI5FTON.js";import"./chunk-XBPPTJU7.js";export{a as action};
