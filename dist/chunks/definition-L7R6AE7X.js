import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-T6S3PO5E.js";import"./chunk-OULGIBU3.js";import"./chunk-Q2YW2U22.js";import"./chunk-F5X2UFR4.js";import"./chunk-S6LZZGEC.js";import"./chunk-7DOOPZ4R.js";import"./chunk-QQMVQEPJ.js";import"./chunk-XBPPTJU7.js";export{a as action};
