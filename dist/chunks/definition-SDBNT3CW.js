import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-KAWHK43Z.js";import"./chunk-3QIVVEHS.js";import"./chunk-6Z7AQWQL.js";import"./chunk-2JNGQLVF.js";import"./chunk-ZXP5UGOP.js";import"./chunk-IGNFH23K.js";import"./chunk-SKUA5T56.js";import"./chunk-AGOBB62V.js";import"./chunk-XTI5FTON.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
